import Synchronization
import WinbackAnalytics
import WinbackCrypto

/// Everything one verifying worker keeps to itself: its verification scratch (header copies, signature and
/// payload buffers, the clock sampling its signature checks) and its tables in front of the shared
/// ``PayloadCompactor`` (attributes, product ids, recent identities).
///
/// With shared tables only, every record retained and released the same objects from both cores and took
/// their locks, so those cache lines moved between the cores on every record. A worker's cache answers from
/// its own copies (equal to the shared instances, `==` and `hash` alike) and asks the shared tables once per
/// value it has not seen. A worker checks a cache out of the ``Pool`` for a batch and returns it after, so
/// one task uses a cache at a time; its tables skip the runtime exclusivity check for that reason (that one
/// user never overlaps two accesses, and the check's thread-local access set is a cost on every record).
public final class WorkerCache: @unchecked Sendable {
    /// Decodes common-shape payloads straight into their kept form, through this cache's tables.
    let decoder: FastPayloadDecoder
    /// What the verifier keeps of this worker's between records.
    public let scratch = VerifierScratch()

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

    /// A common-shape payload (`json`, not yet verified) decoded straight into its kept form, with its
    /// `signedDate` (epoch ms); `nil` for a payload the general path must decode.
    public func decodePayload(_ json: UnsafeBufferPointer<UInt8>, as kind: PayloadKind) -> (signedDate: Int64, kept: KeptPayload)? {
        decoder.decode(json, as: kind, cache: self)
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
                for cache in caches { total.add(cache.scratch.clock) }
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
