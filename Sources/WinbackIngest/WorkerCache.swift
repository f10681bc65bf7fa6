import Crypto
import Synchronization
import WinbackCore
import WinbackCrypto

/// Everything one verifying worker keeps to itself: its copies of the JWS header entries it has used, the
/// signature buffer it decodes into, the clock sampling its signature checks, and its tables in front of
/// the shared ``PayloadCompactor`` (attributes, product ids, recent identities).
///
/// With shared tables only, every record retained and released the same objects from both cores and took
/// their locks, so those cache lines moved between the cores on every record. A worker's cache answers from
/// its own copies (equal to the shared instances, `==` and `hash` alike) and asks the shared tables once per
/// value it has not seen. A worker checks a cache out of the ``Pool`` for a batch and returns it after, so
/// one task uses a cache at a time; its tables skip the runtime exclusivity check for that reason (that one
/// user never overlaps two accesses, and the check's thread-local access set is a cost on every record).
public final class WorkerCache: VerifierWorkerCache, @unchecked Sendable {
    /// Decodes common-shape payloads straight into their kept form, through this cache's tables.
    let decoder: FastPayloadDecoder
    /// The payload ``decodePayload(_:as:)`` decoded last.
    @exclusivity(unchecked) private var decoded: KeptPayload = .ignored

    // Verification
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
    @exclusivity(unchecked) public private(set) var signature = try? P256.Signing.ECDSASignature(
        rawRepresentation: [UInt8](repeating: 0, count: 64))

    // Compaction
    /// This worker's copies of the shared attributes, by ``AttributeBytes/hash()``.
    @exclusivity(unchecked) private var attributes: [UInt64: [TransactionAttributes]] = [:]
    /// The interned product ids of renewal infos, by a hash of their bytes.
    @exclusivity(unchecked) private var productIds: [UInt64: [String]] = [:]
    @exclusivity(unchecked) private var identities = RecentIdentities()

    /// A cache for a worker verifying payloads of `app`, keeping them through `compactor`.
    public init(app: AppIdentity, compactor: PayloadCompactor) {
        decoder = FastPayloadDecoder(app: app, compactor: compactor)
    }

    // MARK: VerifierWorkerCache

    /// This worker's copy of the header entry whose segment is `segment`.
    public func headerEntry(_ segment: UnsafeBufferPointer<UInt8>, hash: Int) -> JWSHeaderCache.Entry? {
        headerEntries.lookup(segment, hash: hash)
    }

    /// Keeps a private copy of `shared` and returns it.
    public func adoptHeaderEntry(_ shared: JWSHeaderCache.Entry, hash: Int) -> JWSHeaderCache.Entry {
        let copy = shared.privateCopy()
        headerEntries.insert(copy, hash: hash)
        return copy
    }

    /// Decodes a 64-byte signature segment into ``signature`` in place; `false` for any other segment.
    public func decodeSignature(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        guard segment.count == Self.signatureCharacters else { return false }
        return signature?.rawRepresentation.withUnsafeMutableBytes { bytes in
            Base64.decodeURL(buffer: segment, into: bytes.bindMemory(to: UInt8.self)) == 64
        } ?? false
    }

    /// The base64url length of a 64-byte signature without padding.
    private static let signatureCharacters = 86

    /// Decodes a common-shape payload into its kept form (``takeDecodedPayload()``); its `signedDate`, or `nil` for the general path.
    public func decodePayload(_ json: UnsafeBufferPointer<UInt8>, as kind: PayloadKind) -> Int64? {
        guard let (signedDate, kept) = decoder.decode(json, as: kind, cache: self) else { return nil }
        decoded = kept
        return signedDate
    }

    /// The payload the last ``decodePayload(_:as:)`` decoded (after ``VerifiedPayload/decodedByCache``).
    public func takeDecodedPayload() -> KeptPayload {
        defer { decoded = .ignored }
        return decoded
    }

    // MARK: Compaction tables

    /// This cache's copy of the attributes spelled `fields` (whose ``AttributeBytes/hash()`` is `hash`), if it has one.
    ///
    /// A lookup and an ``adopt(_:hash:)`` rather than one call taking a closure that asks the compactor:
    /// such a closure captured the compactor, which every worker shares, and retaining and releasing it
    /// for every transaction moved its cache line between the cores.
    func attributes(_ fields: AttributeBytes, hash: UInt64) -> TransactionAttributes? {
        attributes[hash]?.first(where: { fields.spell($0) })
    }

    /// Keeps a copy of `shared` (the compactor's instance, ``AttributeBytes/hash()`` `hash`) and returns it.
    func adopt(_ shared: TransactionAttributes, hash: UInt64) -> TransactionAttributes {
        let copy = shared.copy()
        attributes[hash, default: []].append(copy)
        return copy
    }

    /// This cache's product id spelled `bytes` (whose ``ByteSpelling/hash(_:)`` is `hash`), if it has one.
    func productId(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> String? {
        productIds[hash]?.first(where: { ByteSpelling.matches($0, bytes) })
    }

    /// Keeps `shared` (the compactor's copy of a product id whose bytes hash to `hash`) and returns it.
    func adoptProductId(_ shared: String, hash: UInt64) -> String {
        productIds[hash, default: []].append(shared)
        return shared
    }

    /// ``RecentIdentities/identity(originalTransactionId:appAccountToken:appTransactionId:make:)`` on this cache's table.
    func identity(
        originalTransactionId: UnsafeBufferPointer<UInt8>, appAccountToken: UnsafeBufferPointer<UInt8>?,
        appTransactionId: UnsafeBufferPointer<UInt8>?, make: () -> SubscriptionIdentity
    ) -> SubscriptionIdentity {
        identities.identity(
            originalTransactionId: originalTransactionId, appAccountToken: appAccountToken, appTransactionId: appTransactionId,
            make: make)
    }

    // MARK: Pool

    /// The caches not in use; about as many exist as batches verified at once.
    public final class Pool: Sendable {
        private let idle = Mutex<[WorkerCache]>([])
        private let app: AppIdentity
        private let compactor: PayloadCompactor

        /// An empty pool of caches for `app`'s payloads, kept through `compactor`.
        public init(app: AppIdentity, compactor: PayloadCompactor) {
            self.app = app
            self.compactor = compactor
        }

        /// The signature-check timings of every cache (call when none is in use).
        public func signatureClock() -> SignatureClock {
            idle.withLock { caches in
                let total = SignatureClock()
                for cache in caches { total.add(cache.clock) }
                return total
            }
        }

        /// Runs `body` with a cache no other task holds meanwhile.
        public func withCache<T>(_ body: (WorkerCache) async -> T) async -> T {
            let cache = idle.withLock { $0.popLast() } ?? WorkerCache(app: app, compactor: compactor)
            let result = await body(cache)
            idle.withLock { $0.append(cache) }
            return result
        }
    }
}
