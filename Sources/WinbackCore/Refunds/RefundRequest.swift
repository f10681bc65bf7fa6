import WinbackAppStore

/// What is known of one `CONSUMPTION_REQUEST` (docs/refunds.md): the notification, the transaction it asks about
/// as the model holds it, the facts a policy's `when` reads, and what became of it.
public struct RefundRequest: Sendable, Equatable {
    /// What Apple decided, from a later `REFUND` or `REFUND_DECLINED` of the same `transactionId`.
    public enum Outcome: String, Sendable {
        case refunded, declined, pending
    }

    /// Apple's `notificationUUID` (lower case for a UUID).
    public var notificationUUID: String
    /// The asked transaction's `transactionId`; `nil` when the notification carried no accepted transaction.
    public var transactionId: String?
    /// The subscription's `originalTransactionId`.
    public var originalTransactionId: String?
    /// The account key (`appAccountToken` in lower case, else `originalTransactionId`); `nil` without a subscription.
    public var accountKey: String?
    /// The subscription's `appAccountToken` in lower case, or `nil`.
    public var appAccountToken: String?
    /// The asked transaction's product, or `nil` when the model does not hold it.
    public var productId: String?
    /// The asked transaction's storefront, or `nil`.
    public var storefront: String?
    /// `consumptionRequestReason`, raw; `nil` when absent.
    public var reason: String?
    /// The notification's `signedDate`, epoch ms.
    public var requestedAt: Int64
    /// The subscription's paid days (docs/analysts.md) up to `requestedAt`; 0 without a subscription.
    public var paidDays: Int64
    /// Whole days from the asked transaction's `purchaseDate` to `requestedAt`; `nil` when the model does not hold it.
    public var daysSincePurchase: Int64?
    /// Refunded transactions of the same account signed (and revoked) before `requestedAt`.
    public var priorRefunds: Int64
    /// The asked transaction is a verified, unrevoked transaction of this app in the model.
    public var isDelivered: Bool
    /// The subscription had a free-trial introductory period purchased before the asked transaction.
    public var hadFreeTrialBefore: Bool
    /// What Apple decided so far.
    public var outcome: Outcome = .pending
    /// When: the deciding notification's `signedDate`, epoch ms; `nil` while pending.
    public var outcomeAt: Int64?
    /// The refunded amount (docs/money.md: in the reporting currency when one is set), milliunits; `nil` unless
    /// refunded and the model holds the revoked transaction's price.
    public var refundAmount: Int64?
    /// The currency of `refundAmount`.
    public var currency: String?

    /// Apple weighs an answer that comes within this long of the request: 12 hours, in ms.
    public static let answerWindow: Int64 = 12 * 3_600_000

    /// `requestedAt` + 12 hours: the last instant an answer counts.
    public var deadline: Int64 { requestedAt + Self.answerWindow }

    /// A request with only what the notification says; the model's facts are filled in by ``RefundRequests``.
    public init(notificationUUID: String, transactionId: String?, originalTransactionId: String?, reason: String?, requestedAt: Int64) {
        self.notificationUUID = notificationUUID
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.reason = reason
        self.requestedAt = requestedAt
        self.paidDays = 0
        self.priorRefunds = 0
        self.isDelivered = false
        self.hadFreeTrialBefore = false
    }
}
