import Crypto

/// One worker's own copies of the ``JWSHeaderCache`` entries it has used (``JWSHeaderCache/Entry/privateCopy()``).
///
/// With one shared cache, every record retained and released the same entry, its key and its hash state
/// from both cores, and took the cache's lock: their cache lines moved between the cores on every record.
/// A lane is looked up first, without a lock, and holds objects no other core touches.
///
/// Not thread-safe: one task uses a lane at a time (the ingest hands lanes out from a pool). Its stored
/// properties skip the runtime exclusivity check (`@exclusivity(unchecked)`): that one user never
/// overlaps two accesses to one of them, and the checks on the per-record path (a thread-local access
/// set each time) cost ~0.2 µs per record at scale.
public final class HeaderLane: @unchecked Sendable {
    @exclusivity(unchecked) private var entries: HeaderEntries
    /// Samples the CPU of this worker's signature checks.
    public let clock = SignatureClock()
    /// The last record's ES256 signature, decoded in place into the bytes this value already owns.
    ///
    /// swift-crypto builds a signature only from a `DataProtocol` value, which it copies into a new `Data`
    /// through a dynamic cast: with the decoded array, three heap blocks and a protocol lookup per record
    /// (~0.4 µs). Its `rawRepresentation` is a settable `Data`; while nothing else holds it, writing through
    /// `withUnsafeMutableBytes` reuses its storage.
    /// `nil` only if swift-crypto refused 64 zero bytes as a signature; then the verifier decodes each signature itself.
    @exclusivity(unchecked) private(set) var signature = try? P256.Signing.ECDSASignature(
        rawRepresentation: [UInt8](repeating: 0, count: 64))

    public init(capacity: Int = 64) {
        entries = HeaderEntries(capacity: capacity)
    }

    func lookup(_ segment: UnsafeBufferPointer<UInt8>, hash: Int) -> JWSHeaderCache.Entry? {
        entries.lookup(segment, hash: hash)
    }

    /// Decodes the signature segment of a JWS into ``signature`` when it is the unpadded base64url of 64
    /// bytes (86 characters, as Apple writes it); `false` otherwise, including for a character outside
    /// the alphabet (then ``signature`` holds no meaningful value and the caller decodes the segment itself
    /// to name the failure).
    func decodeSignature(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        guard segment.count == Self.signatureCharacters else { return false }
        return signature?.rawRepresentation.withUnsafeMutableBytes { bytes in
            Base64.decodeURL(buffer: segment, into: bytes.bindMemory(to: UInt8.self)) == 64
        } ?? false
    }

    /// The base64url length of a 64-byte signature without padding.
    private static let signatureCharacters = 86

    /// Keeps a private copy of `shared` and returns it.
    func adopt(_ shared: JWSHeaderCache.Entry, hash: Int) -> JWSHeaderCache.Entry {
        let copy = shared.privateCopy()
        entries.insert(copy, hash: hash)
        return copy
    }
}
