/// Apple's `SubscriptionGroupIdentifierItem`, keys verbatim; every field optional.
public struct SubscriptionGroupIdentifierItem: Sendable, Equatable {
    /// The identifier of the subscription group that the subscription belongs to.
    public var subscriptionGroupIdentifier: String?
    /// An array of the most recent App Store-signed transaction information and App Store-signed renewal informati…
    public var lastTransactions: [LastTransactionsItem]?
    /// Members this version does not know, kept as they came so nothing Apple adds is lost.
    public var unknownFields: [JSONMember] = []

    /// An empty value (every field absent).
    public init() {}

    /// Decodes from a JSON object's members; a present field of the wrong JSON type throws ``FieldError``
    /// naming it (`prefix` + key). `null` reads as absent. Unknown keys land in ``unknownFields``.
    public init(members: [JSONMember], prefix: String = "") throws(FieldError) {
        for member in members {
            switch member.key {
            case "subscriptionGroupIdentifier":
                subscriptionGroupIdentifier = try FieldValue.string(member.value, field: prefix + "subscriptionGroupIdentifier")
            case "lastTransactions":
                lastTransactions = try FieldValue.nestedArray(
                    member.value, field: prefix + "lastTransactions", as: LastTransactionsItem.init(members:prefix:))
            default: unknownFields.append(member)
            }
        }
    }

    /// One warning per enum field whose raw value is unknown to this version (nested objects included).
    public func unknownEnumValues(prefix: String = "") -> [String] {
        var warnings: [String] = []
        for (index, item) in (lastTransactions ?? []).enumerated() {
            warnings += item.unknownEnumValues(prefix: prefix + "lastTransactions[\(index)].")
        }
        return warnings
    }
}
