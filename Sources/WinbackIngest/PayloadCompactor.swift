import Synchronization
import WinbackAnalytics

/// Turns decoded payloads into the compact forms the ``Deduplicator`` stores, sharing one
/// ``TransactionAttributes`` per distinct combination and one copy of each product id. Safe to call from
/// every verifying thread at once: the hash is computed outside the lock, which is held for one lookup.
public final class PayloadCompactor: Sendable {
    private struct Tables {
        var attributes: Set<TransactionAttributes> = []
        /// The same instances by a hash of their fields' UTF-8 bytes, for `intern(_: AttributeBytes)`.
        var attributesByBytes: [UInt64: [TransactionAttributes]] = [:]
        var strings = StringInterner()
    }

    private let tables = Mutex(Tables())

    /// Empty tables.
    public init() {}

    /// The compact form of `payload`.
    public func keep(_ payload: AcceptedPayload) -> KeptPayload {
        switch payload {
        case .transaction(let payload):
            guard payload.transactionId != nil, payload.originalTransactionId != nil else { return .ignored }
            return .transaction(SubscriptionTransaction(payload) { intern($0) })
        case .renewalInfo(let payload):
            guard payload.originalTransactionId != nil else { return .ignored }
            let productId = payload.autoRenewProductId.map { intern($0) }
            return .renewalInfo(RenewalState(payload, autoRenewProductId: productId))
        case .notification(let payload):
            guard let uuid = payload.notificationUUID, let type = payload.rawNotificationType, let signedDate = payload.signedDate else {
                return .ignored
            }
            // The subscription is known once the nested records are verified (``RecordProcessor``).
            return .notification(
                NotificationEvent(
                    notificationUUID: uuid, notificationType: intern(type), subtype: payload.rawSubtype.map { intern($0) },
                    signedDate: signedDate, originalTransactionId: nil,
                    consumptionRequestReason: payload.data?.rawConsumptionRequestReason.map { intern($0) }))
        }
    }

    /// The shared instance equal to `attributes`.
    public func intern(_ attributes: TransactionAttributes) -> TransactionAttributes {
        tables.withLock { $0.attributes.insert(attributes).memberAfterInsert }
    }

    /// The shared instance whose fields spell `fields`: no strings are built and nothing is allocated
    /// when it exists, which is every transaction but the first of each combination. Equal to
    /// `intern(TransactionAttributes(…))` of the same fields as strings.
    func intern(_ fields: AttributeBytes) -> TransactionAttributes {
        let hash = fields.hash()
        return tables.withLock { tables in
            if let found = tables.attributesByBytes[hash]?.first(where: { fields.spell($0) }) { return found }
            let shared = tables.attributes.insert(fields.attributes()).memberAfterInsert
            tables.attributesByBytes[hash, default: []].append(shared)
            return shared
        }
    }

    /// `intern(_: AttributeBytes)` through the worker's `cache` (its own copy, asking here once).
    func intern(_ fields: AttributeBytes, cache: WorkerCache) -> TransactionAttributes {
        let hash = fields.hash()
        return cache.attributes(fields, hash: hash) ?? cache.adopt(intern(fields), hash: hash)
    }

    /// The shared copy of the product id spelled `bytes`, through the worker's `cache`.
    func internProductId(_ bytes: UnsafeBufferPointer<UInt8>, cache: WorkerCache) -> String {
        let hash = ByteSpelling.hash(bytes)
        return cache.productId(bytes, hash: hash) ?? cache.adoptProductId(intern(String(decoding: bytes, as: UTF8.self)), hash: hash)
    }

    /// The identity with these fields (``RecentIdentities``): the one a recent transaction of the same
    /// subscription got in this worker's `cache`, else a new one from `make`.
    func identity(
        originalTransactionId: UnsafeBufferPointer<UInt8>, appAccountToken: UnsafeBufferPointer<UInt8>?,
        appTransactionId: UnsafeBufferPointer<UInt8>?, cache: WorkerCache, make: () -> SubscriptionIdentity
    ) -> SubscriptionIdentity {
        cache.identity(
            originalTransactionId: originalTransactionId, appAccountToken: appAccountToken, appTransactionId: appTransactionId, make: make)
    }

    /// The shared copy of `string`.
    public func intern(_ string: String) -> String {
        tables.withLock { $0.strings.intern(string) }
    }
}
