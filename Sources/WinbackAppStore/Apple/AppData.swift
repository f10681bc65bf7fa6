/// Apple's `AppData`, keys verbatim; every field optional.
public struct AppData: Sendable, Equatable {
    /// The unique identifier of the app that the notification applies to.
    public var appAppleId: Int64?
    /// The bundle identifier of the app.
    public var bundleId: String?
    /// The server environment that the notification applies to, either sandbox or production. Raw wire value; see `environment`.
    public var rawEnvironment: String?
    /// The typed view of `rawEnvironment`; `nil` when absent or unknown to this version.
    public var environment: AppStoreEnvironment? { rawEnvironment.flatMap { AppStoreEnvironment(rawValue: $0) } }
    /// App transaction information signed by the App Store, in JSON Web Signature (JWS) format.
    public var signedAppTransactionInfo: String?
    /// Members this version does not know, kept as they came so nothing Apple adds is lost.
    public var unknownFields: [JSONMember] = []

    /// An empty value (every field absent).
    public init() {}

    /// Decodes from a JSON object's members; a present field of the wrong JSON type throws ``FieldError``
    /// naming it (`prefix` + key). `null` reads as absent. Unknown keys land in ``unknownFields``.
    public init(members: [JSONMember], prefix: String = "") throws(FieldError) {
        for member in members {
            switch member.key {
            case "appAppleId": appAppleId = try FieldValue.int64(member.value, field: prefix + "appAppleId")
            case "bundleId": bundleId = try FieldValue.string(member.value, field: prefix + "bundleId")
            case "environment": rawEnvironment = try FieldValue.string(member.value, field: prefix + "environment")
            case "signedAppTransactionInfo":
                signedAppTransactionInfo = try FieldValue.string(member.value, field: prefix + "signedAppTransactionInfo")
            default: unknownFields.append(member)
            }
        }
    }

    /// One warning per enum field whose raw value is unknown to this version (nested objects included).
    public func unknownEnumValues(prefix: String = "") -> [String] {
        var warnings: [String] = []
        if let warning = AppStoreEnvironment.unknownValueWarning(rawEnvironment, field: prefix + "environment") { warnings.append(warning) }
        return warnings
    }
}
