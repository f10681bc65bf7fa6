import Crypto
import WinbackAnalytics
import WinbackAppStore

/// A compact JWS opened by ``SignedPayloadVerifier/open(_:scratch:)``: three segments, the header (and its
/// chain, evaluated once per distinct header), the payload's JSON bytes decoded from base64url, the
/// signature's bytes and the digest of the signing input — nothing checked yet that needs the payload.
///
/// The caller reads the payload (``withPayloadJSON(_:)``, ``parsePayload()``) and so learns its `signedDate`;
/// ``SignedPayloadVerifier/finish(_:payload:scratch:)`` then runs the checks that remain. Opened with a
/// ``VerifierScratch``, the payload bytes live in the scratch until it opens the next JWS.
public struct OpenedJWS {
    /// What the caller read of the payload, for the checks that depend on it.
    public enum PayloadReading {
        /// A payload object whose `signedDate` (epoch ms) the caller's own decoder read.
        case signedDate(Int64)
        /// The payload parsed as JSON (``parsePayload()``); its shape and `signedDate` are checked by the verifier.
        case parsed(JSONValue)
    }

    var headerHash = 0
    /// The header's cache entry (a scratch's private copy when opened with one); with its chain evaluated.
    var header: JWSHeaderCache.Entry
    /// The payload's JSON bytes: in the scratch's buffer (`payloadInScratch`) or owned here.
    var payloadInScratch: UnsafeBufferPointer<UInt8>?
    var payloadOwned: [UInt8] = []
    /// Why the signature segment could not be decoded: thrown by ``SignedPayloadVerifier/finish(_:payload:scratch:)``
    /// first, so a payload that is not JSON is still named before it, in the check order of docs/inputs.md.
    var signatureFailure: RecordFailure?
    /// The signature's bytes, unless they were decoded into the scratch's signature.
    var signature: [UInt8] = []
    var isSignatureInScratch = false
    var digest: SHA256.Digest?
    /// The scratch's clock and the hashing's nanoseconds, when this record's signature check is being timed.
    var timing: (clock: SignatureClock, hashNanoseconds: Int64)?

    init(header: JWSHeaderCache.Entry) {
        self.header = header
    }

    /// Runs `body` on the payload's JSON bytes (not yet verified). With a scratch, valid only until it opens the next JWS.
    public func withPayloadJSON<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        if let payloadInScratch { return try body(payloadInScratch) }
        return try payloadOwned.withUnsafeBufferPointer { (bytes) throws(E) -> R in try body(bytes) }
    }

    /// The payload parsed as JSON; `malformed_jws` when it is not JSON.
    public func parsePayload() throws(RecordFailure) -> JSONValue {
        do {
            return try withPayloadJSON { (bytes) throws(JSONParseError) in try JSONParser.parse(buffer: bytes) }
        } catch {
            throw RecordFailure(.malformedJWS, "payload is not JSON: \(error)")
        }
    }
}
