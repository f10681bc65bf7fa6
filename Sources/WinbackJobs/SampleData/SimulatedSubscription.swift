import WinbackCore

/// One synthetic subscription: its transactions (decoded payloads, in purchase order), later re-signed
/// versions (refunds), its renewal info and the notifications it produced.
public struct SimulatedSubscription: Sendable {
    public var originalTransactionId: String
    /// Payload objects in purchase order (each as first signed).
    public var transactions: [JSONValue] = []
    /// Re-signed versions (a refund adds `revocationDate`), with the notification type that carried them.
    public var resigned: [JSONValue] = []
    public var renewalInfo: JSONValue?
    /// Notification payloads (`data.signedTransactionInfo` etc. are filled in at signing time).
    public var notifications: [SampleNotification] = []
}

/// A notification to sign: type, subtype, signed date and the payloads it nests.
public struct SampleNotification: Sendable {
    public var notificationType: String
    public var subtype: String?
    public var signedDate: Int64
    public var transaction: JSONValue?
    public var renewalInfo: JSONValue?
    public var status: Int64?
}
