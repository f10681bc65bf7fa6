/// Apple's `StatusResponse`, keys verbatim; every field optional.
public struct StatusResponse: Sendable, Equatable {
    /// The server environment, sandbox or production, in which the App Store generated the response. Raw wire value; see `environment`.
    public var rawEnvironment: String?
    /// The typed view of `rawEnvironment`; `nil` when absent or unknown to this version.
    public var environment: AppStoreEnvironment? { rawEnvironment.flatMap { AppStoreEnvironment(rawValue: $0) } }
    /// The bundle identifier of an app.
    public var bundleId: String?
    /// The unique identifier of an app in the App Store.
    public var appAppleId: Int64?
    /// An array of information for auto-renewable subscriptions, including App Store-signed transaction informatio…
    public var data: [SubscriptionGroupIdentifierItem]?
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
            case "bundleId": bundleId = try FieldValue.string(member.value, field: prefix + "bundleId")
            case "appAppleId": appAppleId = try FieldValue.int64(member.value, field: prefix + "appAppleId")
            case "data":
                data = try FieldValue.nestedArray(
                    member.value, field: prefix + "data", as: SubscriptionGroupIdentifierItem.init(members:prefix:))
            default: unknownFields.append(member)
            }
        }
    }

    /// One warning per enum field whose raw value is unknown to this version (nested objects included).
    public func unknownEnumValues(prefix: String = "") -> [String] {
        var warnings: [String] = []
        if let warning = AppStoreEnvironment.unknownValueWarning(rawEnvironment, field: prefix + "environment") { warnings.append(warning) }
        for (index, item) in (data ?? []).enumerated() { warnings += item.unknownEnumValues(prefix: prefix + "data[\(index)].") }
        return warnings
    }
}
