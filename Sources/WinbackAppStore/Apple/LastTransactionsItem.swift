/// Apple's `LastTransactionsItem`, keys verbatim; every field optional.
public struct LastTransactionsItem: Sendable, Equatable {
    /// The status of the auto-renewable subscription. Raw wire value; see `status`.
    public var rawStatus: Int32?
    /// The typed view of `rawStatus`; `nil` when absent or unknown to this version.
    public var status: Status? { rawStatus.flatMap { Status(rawValue: $0) } }
    /// The original transaction identifier of a purchase.
    public var originalTransactionId: String?
    /// Transaction information signed by the App Store, in JSON Web Signature (JWS) format.
    public var signedTransactionInfo: String?
    /// Subscription renewal information, signed by the App Store, in JSON Web Signature (JWS) format.
    public var signedRenewalInfo: String?
    /// Members this version does not know, kept as they came so nothing Apple adds is lost.
    public var unknownFields: [JSONMember] = []

    /// An empty value (every field absent).
    public init() {}

    /// Decodes from a JSON object's members; a present field of the wrong JSON type throws ``FieldError``
    /// naming it (`prefix` + key). `null` reads as absent. Unknown keys land in ``unknownFields``.
    public init(members: [JSONMember], prefix: String = "") throws(FieldError) {
        for member in members {
            switch member.key {
            case "status": rawStatus = try FieldValue.int32(member.value, field: prefix + "status")
            case "originalTransactionId":
                originalTransactionId = try FieldValue.string(member.value, field: prefix + "originalTransactionId")
            case "signedTransactionInfo":
                signedTransactionInfo = try FieldValue.string(member.value, field: prefix + "signedTransactionInfo")
            case "signedRenewalInfo": signedRenewalInfo = try FieldValue.string(member.value, field: prefix + "signedRenewalInfo")
            default: unknownFields.append(member)
            }
        }
    }

    /// One warning per enum field whose raw value is unknown to this version (nested objects included).
    public func unknownEnumValues(prefix: String = "") -> [String] {
        var warnings: [String] = []
        if let warning = Status.unknownValueWarning(rawStatus, field: prefix + "status") { warnings.append(warning) }
        return warnings
    }
}
