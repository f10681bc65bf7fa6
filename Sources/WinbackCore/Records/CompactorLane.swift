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

    /// This lane's copy of the attributes spelled `fields`, made from `shared()` (the compactor's
    /// instance) the first time.
    func attributes(_ fields: AttributeBytes, shared: () -> TransactionAttributes) -> TransactionAttributes {
        let hash = fields.hash()
        if let found = attributes[hash]?.first(where: { fields.spell($0) }) { return found }
        let copy = shared().copy()
        attributes[hash, default: []].append(copy)
        return copy
    }

    /// The product id spelled `bytes`, from `shared(string)` the first time.
    func productId(_ bytes: UnsafeBufferPointer<UInt8>, shared: (String) -> String) -> String {
        let hash = ByteSpelling.mix(ByteSpelling.emptyHash, bytes)
        if let found = productIds[hash]?.first(where: { ByteSpelling.matches($0, bytes) }) { return found }
        let string = shared(String(decoding: bytes, as: UTF8.self))
        productIds[hash, default: []].append(string)
        return string
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
