import Foundation

/// What a run keeps of an accepted App Store Server Notification (docs/notifications-and-commitments.md): which notification it is,
/// what happened, when, and to which subscription. Its nested transaction and renewal info are records of
/// their own.
///
/// Compact: the UUID in 16 bytes, the subscription as a ``CompactIdentifier``, type and subtype interned
/// by the ingest — a nightly export holds hundreds of thousands of notifications.
public struct NotificationEvent: Sendable, Equatable {
    /// Apple's `notificationUUID` as the key copies share: its 16 bytes, or its text when it is not a UUID.
    public enum Key: Sendable, Hashable {
        case uuid(UUID)
        case text(String)

        /// The key of `notificationUUID` (case-insensitive for UUIDs, as Apple's are).
        public init(_ notificationUUID: String) {
            self = UUID(uuidString: notificationUUID).map(Key.uuid) ?? .text(notificationUUID)
        }
    }

    /// The deduplication key: identical copies (webhook and notification history) share it.
    public var key: Key
    /// Apple's `notificationType`, raw (`DID_CHANGE_RENEWAL_STATUS`, …).
    public var notificationType: String
    /// Apple's `subtype`, raw (`AUTO_RENEW_DISABLED`, …), or `nil`.
    public var subtype: String?
    /// Apple's `signedDate`, epoch ms.
    public var signedDate: Int64
    /// The subscription: the nested transaction's `originalTransactionId` (else the nested renewal info's);
    /// `nil` when neither was accepted.
    public var subscription: CompactIdentifier?
    /// The nested transaction's `transactionId` (the transaction a `CONSUMPTION_REQUEST`, `REFUND` or
    /// `REFUND_DECLINED` is about); `nil` when none was accepted.
    public var transaction: CompactIdentifier?
    /// `data.consumptionRequestReason`, raw (`UNINTENDED_PURCHASE`, …), or `nil`.
    public var consumptionRequestReason: String?

    /// An event from its fields.
    public init(
        notificationUUID: String, notificationType: String, subtype: String?, signedDate: Int64, originalTransactionId: String?,
        transactionId: String? = nil, consumptionRequestReason: String? = nil
    ) {
        self.key = Key(notificationUUID)
        self.notificationType = notificationType
        self.subtype = subtype
        self.signedDate = signedDate
        self.subscription = originalTransactionId.map(CompactIdentifier.init)
        self.transaction = transactionId.map(CompactIdentifier.init)
        self.consumptionRequestReason = consumptionRequestReason
    }

    /// Apple's `notificationUUID`: a UUID in lower case (as Apple writes them), else the text as written.
    public var notificationUUID: String {
        switch key {
        case .uuid(let uuid): uuid.uuidString.lowercased()
        case .text(let text): text
        }
    }

    /// The nested transaction's `transactionId` as Apple wrote it.
    public var transactionId: String? { transaction?.string }

    /// The subscription's `originalTransactionId` as Apple wrote it.
    public var originalTransactionId: String? { subscription?.string }

    /// `DID_CHANGE_RENEWAL_STATUS` / `AUTO_RENEW_DISABLED`: the customer turned auto-renew off.
    public var turnsAutoRenewOff: Bool { notificationType == "DID_CHANGE_RENEWAL_STATUS" && subtype == "AUTO_RENEW_DISABLED" }
    /// `DID_CHANGE_RENEWAL_STATUS` / `AUTO_RENEW_ENABLED`: the customer turned auto-renew back on.
    public var turnsAutoRenewOn: Bool { notificationType == "DID_CHANGE_RENEWAL_STATUS" && subtype == "AUTO_RENEW_ENABLED" }
}
