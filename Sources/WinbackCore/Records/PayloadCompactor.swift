import Synchronization

/// Turns decoded payloads into the compact forms the ``Deduplicator`` stores, sharing one
/// ``TransactionAttributes`` per distinct combination and one copy of each product id. Safe to call from
/// every verifying thread at once: the hash is computed outside the lock, which is held for one lookup.
public final class PayloadCompactor: Sendable {
    private struct Tables {
        var attributes: Set<TransactionAttributes> = []
        var strings = StringInterner()
    }

    private let tables = Mutex(Tables())

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
        case .notification:
            return .ignored
        }
    }

    /// The shared instance equal to `attributes`.
    public func intern(_ attributes: TransactionAttributes) -> TransactionAttributes {
        tables.withLock { $0.attributes.insert(attributes).memberAfterInsert }
    }

    /// The shared copy of `string`.
    public func intern(_ string: String) -> String {
        tables.withLock { $0.strings.intern(string) }
    }
}
