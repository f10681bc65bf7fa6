/// The per-subscription identifiers of a transaction (`originalTransactionId`, `appAccountToken`,
/// `appTransactionId`), shared by all transactions of a subscription that agree on them: one 8-byte
/// reference per transaction instead of three strings (48 bytes inline plus their heap copies).
public final class SubscriptionIdentity: Sendable, Equatable {
    public let originalTransactionId: String
    /// Lower-cased.
    public let appAccountToken: String?
    public let appTransactionId: String?

    public init(originalTransactionId: String, appAccountToken: String?, appTransactionId: String?) {
        self.originalTransactionId = originalTransactionId
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
    }

    public static func == (a: SubscriptionIdentity, b: SubscriptionIdentity) -> Bool {
        a === b
            || (a.originalTransactionId == b.originalTransactionId && a.appAccountToken == b.appAccountToken
                && a.appTransactionId == b.appTransactionId)
    }
}
