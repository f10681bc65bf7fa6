/// Apple's `NotificationData`, keys verbatim; every field optional.
public struct NotificationData: Sendable, Equatable {
    /// The server environment that the notification applies to, either sandbox or production. Raw wire value; see `environment`.
    public var rawEnvironment: String?
    /// The typed view of `rawEnvironment`; `nil` when absent or unknown to this version.
    public var environment: AppStoreEnvironment? { rawEnvironment.flatMap { AppStoreEnvironment(rawValue: $0) } }
    /// The unique identifier of an app in the App Store.
    public var appAppleId: Int64?
    /// The bundle identifier of an app.
    public var bundleId: String?
    /// The version of the build that identifies an iteration of the bundle.
    public var bundleVersion: String?
    /// Transaction information signed by the App Store, in JSON Web Signature (JWS) format.
    public var signedTransactionInfo: String?
    /// Subscription renewal information, signed by the App Store, in JSON Web Signature (JWS) format.
    public var signedRenewalInfo: String?
    /// The status of an auto-renewable subscription as of the signedDate in the responseBodyV2DecodedPayload. Raw wire value; see `status`.
    public var rawStatus: Int32?
    /// The typed view of `rawStatus`; `nil` when absent or unknown to this version.
    public var status: Status? { rawStatus.flatMap { Status(rawValue: $0) } }
    /// The reason the customer requested the refund. Raw wire value; see `consumptionRequestReason`.
    public var rawConsumptionRequestReason: String?
    /// The typed view of `rawConsumptionRequestReason`; `nil` when absent or unknown to this version.
    public var consumptionRequestReason: ConsumptionRequestReason? {
        rawConsumptionRequestReason.flatMap { ConsumptionRequestReason(rawValue: $0) }
    }
    /// Members this version does not know, kept as they came so nothing Apple adds is lost.
    public var unknownFields: [JSONMember] = []

    /// An empty value (every field absent).
    public init() {}

    /// Decodes from a JSON object's members; a present field of the wrong JSON type throws ``FieldError``
    /// naming it (`prefix` + key). `null` reads as absent. Unknown keys land in ``unknownFields``.
    public init(members: [JSONMember], prefix: String = "") throws(FieldError) {
        for member in members {
            switch member.key {
            case "environment": rawEnvironment = try FieldValue.string(member.value, field: prefix + "environment")
            case "appAppleId": appAppleId = try FieldValue.int64(member.value, field: prefix + "appAppleId")
            case "bundleId": bundleId = try FieldValue.string(member.value, field: prefix + "bundleId")
            case "bundleVersion": bundleVersion = try FieldValue.string(member.value, field: prefix + "bundleVersion")
            case "signedTransactionInfo":
                signedTransactionInfo = try FieldValue.string(member.value, field: prefix + "signedTransactionInfo")
            case "signedRenewalInfo": signedRenewalInfo = try FieldValue.string(member.value, field: prefix + "signedRenewalInfo")
            case "status": rawStatus = try FieldValue.int32(member.value, field: prefix + "status")
            case "consumptionRequestReason":
                rawConsumptionRequestReason = try FieldValue.string(member.value, field: prefix + "consumptionRequestReason")
            default: unknownFields.append(member)
            }
        }
    }

    /// One warning per enum field whose raw value is unknown to this version (nested objects included).
    public func unknownEnumValues(prefix: String = "") -> [String] {
        var warnings: [String] = []
        if let warning = AppStoreEnvironment.unknownValueWarning(rawEnvironment, field: prefix + "environment") { warnings.append(warning) }
        if let warning = Status.unknownValueWarning(rawStatus, field: prefix + "status") { warnings.append(warning) }
        if let warning = ConsumptionRequestReason.unknownValueWarning(
            rawConsumptionRequestReason, field: prefix + "consumptionRequestReason")
        {
            warnings.append(warning)
        }
        return warnings
    }
}
