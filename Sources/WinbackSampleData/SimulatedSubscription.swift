import WinbackAppStore

/// One synthetic subscription: its transactions (decoded payloads, in purchase order), later re-signed
/// versions (refunds), its renewal info and the notifications it produced.
public struct SimulatedSubscription: Sendable {
    /// The subscription's `originalTransactionId`.
    public var originalTransactionId: String
    /// Payload objects in purchase order (each as first signed).
    public var transactions: [JSONValue] = []
    /// Re-signed versions (a refund adds `revocationDate`), with the notification type that carried them.
    public var resigned: [JSONValue] = []
    /// The latest renewal-info payload.
    public var renewalInfo: JSONValue?
    /// Notification payloads (`data.signedTransactionInfo` etc. are filled in at signing time).
    public var notifications: [SampleNotification] = []
}

/// A notification to sign: type, subtype, signed date and the payloads it nests.
public struct SampleNotification: Sendable {
    /// Apple's `notificationType`.
    public var notificationType: String
    /// Apple's `subtype`.
    public var subtype: String?
    /// Apple's `signedDate`, epoch ms.
    public var signedDate: Int64
    /// The transaction payload to nest as `signedTransactionInfo`.
    public var transaction: JSONValue?
    /// The renewal-info payload to nest as `signedRenewalInfo`.
    public var renewalInfo: JSONValue?
    /// Apple's `status` (1–5).
    public var status: Int64?
}
