/// Apple's `Summary`, keys verbatim; every field optional.
public struct Summary: Sendable, Equatable {
    /// The server environment that the notification applies to, either sandbox or production. Raw wire value; see `environment`.
    public var rawEnvironment: String?
    /// The typed view of `rawEnvironment`; `nil` when absent or unknown to this version.
    public var environment: AppStoreEnvironment? { rawEnvironment.flatMap { AppStoreEnvironment(rawValue: $0) } }
    /// The unique identifier of an app in the App Store.
    public var appAppleId: Int64?
    /// The bundle identifier of an app.
    public var bundleId: String?
    /// The unique identifier for the product, that you create in App Store Connect.
    public var productId: String?
    /// A string that contains a unique identifier you provide to track each subscription-renewal-date extension re…
    public var requestIdentifier: String?
    /// A list of storefront country codes you provide to limit the storefronts for a subscription-renewal-date ext…
    public var storefrontCountryCodes: [String]?
    /// The count of subscriptions that successfully receive a subscription-renewal-date extension.
    public var succeededCount: Int64?
    /// The count of subscriptions that fail to receive a subscription-renewal-date extension.
    public var failedCount: Int64?
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
            case "productId": productId = try FieldValue.string(member.value, field: prefix + "productId")
            case "requestIdentifier": requestIdentifier = try FieldValue.string(member.value, field: prefix + "requestIdentifier")
            case "storefrontCountryCodes":
                storefrontCountryCodes = try FieldValue.stringArray(member.value, field: prefix + "storefrontCountryCodes")
            case "succeededCount": succeededCount = try FieldValue.int64(member.value, field: prefix + "succeededCount")
            case "failedCount": failedCount = try FieldValue.int64(member.value, field: prefix + "failedCount")
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
