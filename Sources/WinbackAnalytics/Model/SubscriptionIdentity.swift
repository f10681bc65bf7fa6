/// The per-subscription identifiers of a transaction (`originalTransactionId`, `appAccountToken`,
/// `appTransactionId`), shared by all transactions of a subscription that agree on them: one 8-byte
/// reference per transaction instead of three strings (48 bytes inline plus their heap copies).
public final class SubscriptionIdentity: Sendable, Equatable {
    /// Apple's `originalTransactionId`.
    public let originalTransactionId: String
    /// Lower-cased.
    public let appAccountToken: String?
    /// Apple's `appTransactionId`.
    public let appTransactionId: String?

    /// An identity from its three fields (`appAccountToken` as kept: lower-cased).
    public init(originalTransactionId: String, appAccountToken: String?, appTransactionId: String?) {
        self.originalTransactionId = originalTransactionId
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
    }

    /// Equal when the three fields are.
    public static func == (a: SubscriptionIdentity, b: SubscriptionIdentity) -> Bool {
        a === b
            || (a.originalTransactionId == b.originalTransactionId && a.appAccountToken == b.appAccountToken
                && a.appTransactionId == b.appTransactionId)
    }
}
