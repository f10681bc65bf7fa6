/// Apple's `ExternalPurchaseToken`, keys verbatim; every field optional.
public struct ExternalPurchaseToken: Sendable, Equatable {
    /// The field of an external purchase token that uniquely identifies the token.
    public var externalPurchaseId: String?
    /// The field of an external purchase token that contains the UNIX date, in milliseconds, when the system creat…
    public var tokenCreationDate: Int64?
    /// The unique identifier of an app in the App Store.
    public var appAppleId: Int64?
    /// The bundle identifier of an app.
    public var bundleId: String?
    /// Members this version does not know, kept as they came so nothing Apple adds is lost.
    public var unknownFields: [JSONMember] = []

    /// An empty value (every field absent).
    public init() {}

    /// Decodes from a JSON object's members; a present field of the wrong JSON type throws ``FieldError``
    /// naming it (`prefix` + key). `null` reads as absent. Unknown keys land in ``unknownFields``.
    public init(members: [JSONMember], prefix: String = "") throws(FieldError) {
        for member in members {
            switch member.key {
            case "externalPurchaseId": externalPurchaseId = try FieldValue.string(member.value, field: prefix + "externalPurchaseId")
            case "tokenCreationDate": tokenCreationDate = try FieldValue.instant(member.value, field: prefix + "tokenCreationDate")
            case "appAppleId": appAppleId = try FieldValue.int64(member.value, field: prefix + "appAppleId")
            case "bundleId": bundleId = try FieldValue.string(member.value, field: prefix + "bundleId")
            default: unknownFields.append(member)
            }
        }
    }

    /// One warning per enum field whose raw value is unknown to this version (nested objects included).
    public func unknownEnumValues(prefix: String = "") -> [String] { [] }
}
