import Crypto
import WinbackCore

/// What one verifying worker keeps to itself, lent to ``SignedPayloadVerifier/verify(_:as:cache:)`` for
/// one record at a time: its own copies of the header entries it has used, a signature buffer decoded in
/// place, the clock that samples its signature checks, and a decoder that turns a payload's JSON bytes
/// straight into the caller's stored form.
///
/// The verifier knows nothing of that stored form: it hands the payload bytes to ``decodePayload(_:as:)``
/// and, when every check passes, answers ``VerifiedPayload/decodedByCache`` (the caller takes the value
/// from its cache). Not thread-safe: one task uses a cache at a time.
public protocol VerifierWorkerCache: AnyObject {
    /// This worker's copy of the header entry whose segment is `segment` (its ``JWSHeaderCache/hash(_:)`` is `hash`).
    func headerEntry(_ segment: UnsafeBufferPointer<UInt8>, hash: Int) -> JWSHeaderCache.Entry?
    /// Keeps a private copy of `shared` (``JWSHeaderCache/Entry/privateCopy()``) and returns it.
    func adoptHeaderEntry(_ shared: JWSHeaderCache.Entry, hash: Int) -> JWSHeaderCache.Entry
    /// Decodes a signature segment into ``signature`` when it is the unpadded base64url of 64 bytes;
    /// `false` otherwise (the verifier then decodes the segment itself to name the failure).
    func decodeSignature(_ segment: UnsafeBufferPointer<UInt8>) -> Bool
    /// The signature the last successful ``decodeSignature(_:)`` decoded.
    var signature: P256.Signing.ECDSASignature? { get }
    /// Samples this worker's signature checks.
    var clock: SignatureClock { get }
    /// Decodes `json` (a payload's JSON bytes, not yet verified) into the caller's stored form and keeps it
    /// until the next call; returns the payload's `signedDate` (epoch ms), or `nil` to let the verifier parse
    /// and decode it the general way.
    func decodePayload(_ json: UnsafeBufferPointer<UInt8>, as kind: PayloadKind) -> Int64?
}
