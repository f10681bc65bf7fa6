/// One worker's tables in front of a ``PayloadCompactor``'s shared ones (see ``FastPayloadDecoder/init(app:compactor:lane:)``).
///
/// Without it every transaction took the compactor's two locks and retained attribute objects that the
/// other core's transactions retained too, so the locks' and objects' cache lines moved between the
/// cores on every record. A lane answers from its own tables and keeps its own copies of the attributes
/// (equal to the shared instances, `==` and `hash` alike), so a worker touches only memory no other
/// core writes; the shared tables are consulted once per combination a lane has not seen.
///
/// Not thread-safe: one task uses a lane at a time (the ingest hands lanes out from a pool). Its tables
/// skip the runtime exclusivity check, as ``HeaderLane``'s do: that one user never overlaps two accesses.
public final class CompactorLane: @unchecked Sendable {
    /// This lane's copies of the shared attributes, by ``AttributeBytes/hash()``.
    @exclusivity(unchecked) private var attributes: [UInt64: [TransactionAttributes]] = [:]
    /// The interned product ids of renewal infos, by a hash of their bytes.
    @exclusivity(unchecked) private var productIds: [UInt64: [String]] = [:]
    @exclusivity(unchecked) private var identities = RecentIdentities()

    public init() {}

    /// This lane's copy of the attributes spelled `fields` (whose ``AttributeBytes/hash()`` is `hash`), if it has one.
    ///
    /// A lookup and an ``adopt(_:hash:)`` rather than one call taking a closure that asks the compactor:
    /// such a closure captured the compactor, which every worker shares, and retaining and releasing it
    /// for every transaction moved its cache line between the cores (0.11 µs per record in a 1/10-scale
    /// profile).
    func attributes(_ fields: AttributeBytes, hash: UInt64) -> TransactionAttributes? {
        attributes[hash]?.first(where: { fields.spell($0) })
    }

    /// Keeps a copy of `shared` (the compactor's instance, ``AttributeBytes/hash()`` `hash`) and returns it.
    func adopt(_ shared: TransactionAttributes, hash: UInt64) -> TransactionAttributes {
        let copy = shared.copy()
        attributes[hash, default: []].append(copy)
        return copy
    }

    /// This lane's product id spelled `bytes` (whose ``ByteSpelling/hash(_:)`` is `hash`), if it has one.
    func productId(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> String? {
        productIds[hash]?.first(where: { ByteSpelling.matches($0, bytes) })
    }

    /// Keeps `shared` (the compactor's copy of a product id whose bytes hash to `hash`) and returns it.
    func adoptProductId(_ shared: String, hash: UInt64) -> String {
        productIds[hash, default: []].append(shared)
        return shared
    }

    /// ``RecentIdentities/identity(originalTransactionId:appAccountToken:appTransactionId:make:)`` on this lane's table.
    func identity(
        originalTransactionId: UnsafeBufferPointer<UInt8>, appAccountToken: UnsafeBufferPointer<UInt8>?,
        appTransactionId: UnsafeBufferPointer<UInt8>?, make: () -> SubscriptionIdentity
    ) -> SubscriptionIdentity {
        identities.identity(
            originalTransactionId: originalTransactionId, appAccountToken: appAccountToken, appTransactionId: appTransactionId, make: make)
    }
}
