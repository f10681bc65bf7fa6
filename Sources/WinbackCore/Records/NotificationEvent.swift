/// What a run keeps of an accepted App Store Server Notification (SPEC §13): which notification it is,
/// what happened, when, and to which subscription. Its nested transaction and renewal info are records of
/// their own.
public struct NotificationEvent: Sendable, Equatable {
    /// Apple's `notificationUUID`: identical copies (webhook and notification history) share it.
    public var notificationUUID: String
    /// Apple's `notificationType`, raw (`DID_CHANGE_RENEWAL_STATUS`, …).
    public var notificationType: String
    /// Apple's `subtype`, raw (`AUTO_RENEW_DISABLED`, …), or `nil`.
    public var subtype: String?
    /// Apple's `signedDate`, epoch ms.
    public var signedDate: Int64
    /// The `originalTransactionId` of the nested transaction (else of the nested renewal info); `nil` when
    /// neither was accepted.
    public var originalTransactionId: String?

    /// An event from its fields.
    public init(notificationUUID: String, notificationType: String, subtype: String?, signedDate: Int64, originalTransactionId: String?) {
        self.notificationUUID = notificationUUID
        self.notificationType = notificationType
        self.subtype = subtype
        self.signedDate = signedDate
        self.originalTransactionId = originalTransactionId
    }

    /// `DID_CHANGE_RENEWAL_STATUS` / `AUTO_RENEW_DISABLED`: the customer turned auto-renew off.
    public var turnsAutoRenewOff: Bool { notificationType == "DID_CHANGE_RENEWAL_STATUS" && subtype == "AUTO_RENEW_DISABLED" }
    /// `DID_CHANGE_RENEWAL_STATUS` / `AUTO_RENEW_ENABLED`: the customer turned auto-renew back on.
    public var turnsAutoRenewOn: Bool { notificationType == "DID_CHANGE_RENEWAL_STATUS" && subtype == "AUTO_RENEW_ENABLED" }
}
