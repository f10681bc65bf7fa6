/// A decoded App Store Server Notifications V2 payload (`ResponseBodyV2DecodedPayload`).
///
/// Its nested `data.signedTransactionInfo` / `data.signedRenewalInfo` stay JWS strings: they are
/// records of their own and are verified separately.
public struct ResponseBodyV2DecodedPayload: Sendable, Equatable {
    /// The in-app purchase event for which the App Store sends this version 2 notification. Raw wire value; see `notificationType`.
    public var rawNotificationType: String?
    /// The typed view of `rawNotificationType`; `nil` when absent or unknown to this version.
    public var notificationType: NotificationTypeV2? { rawNotificationType.flatMap { NotificationTypeV2(rawValue: $0) } }
    /// Additional information that identifies the notification event. The subtype field is present only for specif… Raw wire value; see `subtype`.
    public var rawSubtype: String?
    /// The typed view of `rawSubtype`; `nil` when absent or unknown to this version.
    public var subtype: Subtype? { rawSubtype.flatMap { Subtype(rawValue: $0) } }
    /// A unique identifier for the notification.
    public var notificationUUID: String?
    /// The object that contains the app metadata and signed renewal and transaction information.
    public var data: NotificationData?
    /// A string that indicates the notification’s App Store Server Notifications version number.
    public var version: String?
    /// The UNIX time, in milliseconds, that the App Store signed the JSON Web Signature data. Epoch milliseconds.
    public var signedDate: Int64?
    /// The summary data that appears when the App Store server completes your request to extend a subscription ren…
    public var summary: Summary?
    /// This field appears when the notificationType is EXTERNAL_PURCHASE_TOKEN.
    public var externalPurchaseToken: ExternalPurchaseToken?
    /// This field appears when the notificationType is RESCIND_CONSENT. It contains the app metadata and signed ap…
    public var appData: AppData?
    /// Members this version does not know, kept as they came so nothing Apple adds is lost.
    public var unknownFields: [JSONMember] = []

    /// An empty value (every field absent).
    public init() {}

    /// Decodes from a JSON object's members; a present field of the wrong JSON type throws ``FieldError``
    /// naming it (`prefix` + key). `null` reads as absent. Unknown keys land in ``unknownFields``.
    public init(members: [JSONMember], prefix: String = "") throws(FieldError) {
        for member in members {
            switch member.key {
            case "notificationType": rawNotificationType = try FieldValue.string(member.value, field: prefix + "notificationType")
            case "subtype": rawSubtype = try FieldValue.string(member.value, field: prefix + "subtype")
            case "notificationUUID": notificationUUID = try FieldValue.string(member.value, field: prefix + "notificationUUID")
            case "data": data = try FieldValue.nested(member.value, field: prefix + "data", as: NotificationData.init(members:prefix:))
            case "version": version = try FieldValue.string(member.value, field: prefix + "version")
            case "signedDate": signedDate = try FieldValue.instant(member.value, field: prefix + "signedDate")
            case "summary": summary = try FieldValue.nested(member.value, field: prefix + "summary", as: Summary.init(members:prefix:))
            case "externalPurchaseToken":
                externalPurchaseToken = try FieldValue.nested(
                    member.value, field: prefix + "externalPurchaseToken", as: ExternalPurchaseToken.init(members:prefix:))
            case "appData": appData = try FieldValue.nested(member.value, field: prefix + "appData", as: AppData.init(members:prefix:))
            default: unknownFields.append(member)
            }
        }
    }

    /// One warning per enum field whose raw value is unknown to this version (nested objects included).
    public func unknownEnumValues(prefix: String = "") -> [String] {
        var warnings: [String] = []
        if let warning = NotificationTypeV2.unknownValueWarning(rawNotificationType, field: prefix + "notificationType") {
            warnings.append(warning)
        }
        if let warning = Subtype.unknownValueWarning(rawSubtype, field: prefix + "subtype") { warnings.append(warning) }
        if let data { warnings += data.unknownEnumValues(prefix: prefix + "data.") }
        if let summary { warnings += summary.unknownEnumValues(prefix: prefix + "summary.") }
        if let externalPurchaseToken { warnings += externalPurchaseToken.unknownEnumValues(prefix: prefix + "externalPurchaseToken.") }
        if let appData { warnings += appData.unknownEnumValues(prefix: prefix + "appData.") }
        return warnings
    }
}
