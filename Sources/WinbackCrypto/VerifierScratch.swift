import Crypto

/// What one verifying worker keeps to itself between records, lent to ``SignedPayloadVerifier`` one record at
/// a time: its own copies of the header entries it has used, a signature decoded in place, the buffer a
/// payload is base64url-decoded into, and the clock that samples its signature checks.
///
/// With shared header entries only, every record retained and released the same objects from both cores, so
/// their cache lines moved between the cores on every record; a worker's copies are equal to the shared
/// entries and touched by one core. Not thread-safe: one task uses a scratch at a time, which is why its
/// fields skip the runtime exclusivity check (its thread-local access set is a cost on every record).
public final class VerifierScratch {
    @exclusivity(unchecked) private var headerEntries = HeaderEntries(capacity: 64)
    /// Samples this worker's signature checks.
    public let clock = SignatureClock()
    /// The last record's ES256 signature, decoded in place into the bytes this value already owns.
    ///
    /// swift-crypto builds a signature only from a `DataProtocol` value, which it copies into a new `Data`
    /// through a dynamic cast: with the decoded array, three heap blocks and a protocol lookup per record.
    /// Its `rawRepresentation` is a settable `Data`; while nothing else holds it, writing through
    /// `withUnsafeMutableBytes` reuses its storage. `nil` only if swift-crypto refused 64 zero bytes as a
    /// signature; then the verifier decodes each signature itself.
    @exclusivity(unchecked) private(set) var signature = try? P256.Signing.ECDSASignature(
        rawRepresentation: [UInt8](repeating: 0, count: 64))
    /// The decoded payload of the record being verified (``OpenedJWS``), reused from record to record: an
    /// array per record was a >1 KB heap block, which made glibc consolidate its free lists on every record
    /// once the heap held millions of objects.
    @exclusivity(unchecked) private var payload = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 16 * 1024)
    /// The largest payload decoded into ``payload``; a larger one gets a buffer of its own, so one huge record
    /// does not keep its size allocated for the rest of the run.
    static let largestKeptPayload = 1 << 20

    /// An empty scratch.
    public init() {}

    deinit { payload.deallocate() }

    /// This worker's copy of the header entry whose segment is `segment` (its ``JWSHeaderCache/hash(_:)`` is `hash`).
    func headerEntry(_ segment: UnsafeBufferPointer<UInt8>, hash: Int) -> JWSHeaderCache.Entry? {
        headerEntries.lookup(segment, hash: hash)
    }

    /// Keeps a private copy of `shared` (``JWSHeaderCache/Entry/privateCopy()``) and returns it.
    func adoptHeaderEntry(_ shared: JWSHeaderCache.Entry, hash: Int) -> JWSHeaderCache.Entry {
        let copy = shared.privateCopy()
        headerEntries.insert(copy, hash: hash)
        return copy
    }

    /// Decodes a 64-byte signature segment into ``signature`` in place; `false` for any other segment.
    func decodeSignature(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        guard segment.count == Self.signatureCharacters else { return false }
        return signature?.rawRepresentation.withUnsafeMutableBytes { bytes in
            Base64.decodeURL(buffer: segment, into: bytes.bindMemory(to: UInt8.self)) == 64
        } ?? false
    }

    /// The base64url length of a 64-byte signature without padding.
    private static let signatureCharacters = 86

    /// The payload buffer, at least `capacity` bytes (``largestKeptPayload`` at most), grown as needed.
    func payloadBuffer(capacity: Int) -> UnsafeMutableBufferPointer<UInt8> {
        if payload.count < capacity {
            payload.deallocate()
            payload = .allocate(capacity: max(capacity, 2 * payload.count))
        }
        return payload
    }
}
