/// Apple's `HistoryResponse`, keys verbatim; every field optional.
public struct HistoryResponse: Sendable, Equatable {
    /// A token you use in a query to request the next set of transactions for the customer.
    public var revision: String?
    /// A Boolean value indicating whether the App Store has more transaction data.
    public var hasMore: Bool?
    /// The bundle identifier of an app.
    public var bundleId: String?
    /// The unique identifier of an app in the App Store.
    public var appAppleId: Int64?
    /// The server environment in which you’re making the request, whether sandbox or production. Raw wire value; see `environment`.
    public var rawEnvironment: String?
    /// The typed view of `rawEnvironment`; `nil` when absent or unknown to this version.
    public var environment: AppStoreEnvironment? { rawEnvironment.flatMap { AppStoreEnvironment(rawValue: $0) } }
    /// An array of in-app purchase transactions for the customer, signed by Apple, in JSON Web Signature format.
    public var signedTransactions: [String]?
    /// Members this version does not know, kept as they came so nothing Apple adds is lost.
    public var unknownFields: [JSONMember] = []

    /// An empty value (every field absent).
    public init() {}

    /// Decodes from a JSON object's members; a present field of the wrong JSON type throws ``FieldError``
    /// naming it (`prefix` + key). `null` reads as absent. Unknown keys land in ``unknownFields``.
    public init(members: [JSONMember], prefix: String = "") throws(FieldError) {
        for member in members {
            switch member.key {
            case "revision": revision = try FieldValue.string(member.value, field: prefix + "revision")
            case "hasMore": hasMore = try FieldValue.bool(member.value, field: prefix + "hasMore")
            case "bundleId": bundleId = try FieldValue.string(member.value, field: prefix + "bundleId")
            case "appAppleId": appAppleId = try FieldValue.int64(member.value, field: prefix + "appAppleId")
            case "environment": rawEnvironment = try FieldValue.string(member.value, field: prefix + "environment")
            case "signedTransactions": signedTransactions = try FieldValue.stringArray(member.value, field: prefix + "signedTransactions")
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
