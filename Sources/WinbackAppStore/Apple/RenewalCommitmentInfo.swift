/// Apple's `RenewalCommitmentInfo` (a renewal info's `commitmentInfo`), keys verbatim; every field optional.
public struct RenewalCommitmentInfo: Sendable, Equatable {
    /// The product the commitment renews to.
    public var commitmentAutoRenewProductId: String?
    /// Whether the commitment renews when it ends. Raw wire value; see `commitmentAutoRenewStatus`.
    public var rawCommitmentAutoRenewStatus: Int32?
    /// The typed view of `rawCommitmentAutoRenewStatus`; `nil` when absent or unknown to this version.
    public var commitmentAutoRenewStatus: AutoRenewStatus? { rawCommitmentAutoRenewStatus.flatMap { AutoRenewStatus(rawValue: $0) } }
    /// How the renewed commitment is billed. Raw wire value; see `commitmentRenewalBillingPlanType`.
    public var rawCommitmentRenewalBillingPlanType: String?
    /// The typed view of `rawCommitmentRenewalBillingPlanType`; `nil` when absent or unknown to this version.
    public var commitmentRenewalBillingPlanType: RenewalBillingPlanType? {
        rawCommitmentRenewalBillingPlanType.flatMap { RenewalBillingPlanType(rawValue: $0) }
    }
    /// When the commitment renews, epoch ms.
    public var commitmentRenewalDate: Int64?
    /// The price of the renewed commitment, in milliunits of the renewal's currency.
    public var commitmentRenewalPrice: Int64?
    /// Members this version does not know, kept as they came so nothing Apple adds is lost.
    public var unknownFields: [JSONMember] = []

    /// An empty value (every field absent).
    public init() {}

    /// Decodes from a JSON object's members; a present field of the wrong JSON type throws ``FieldError``
    /// naming it (`prefix` + key). `null` reads as absent. Unknown keys land in ``unknownFields``.
    public init(members: [JSONMember], prefix: String = "") throws(FieldError) {
        for member in members {
            switch member.key {
            case "commitmentAutoRenewProductId":
                commitmentAutoRenewProductId = try FieldValue.string(member.value, field: prefix + "commitmentAutoRenewProductId")
            case "commitmentAutoRenewStatus":
                rawCommitmentAutoRenewStatus = try FieldValue.int32(member.value, field: prefix + "commitmentAutoRenewStatus")
            case "commitmentRenewalBillingPlanType":
                rawCommitmentRenewalBillingPlanType = try FieldValue.string(
                    member.value, field: prefix + "commitmentRenewalBillingPlanType")
            case "commitmentRenewalDate":
                commitmentRenewalDate = try FieldValue.instant(member.value, field: prefix + "commitmentRenewalDate")
            case "commitmentRenewalPrice":
                commitmentRenewalPrice = try FieldValue.int64(member.value, field: prefix + "commitmentRenewalPrice")
            default: unknownFields.append(member)
            }
        }
    }

    /// One warning per enum field whose raw value is unknown to this version.
    public func unknownEnumValues(prefix: String = "") -> [String] {
        var warnings: [String] = []
        if let warning = AutoRenewStatus.unknownValueWarning(rawCommitmentAutoRenewStatus, field: prefix + "commitmentAutoRenewStatus") {
            warnings.append(warning)
        }
        if let warning = RenewalBillingPlanType.unknownValueWarning(
            rawCommitmentRenewalBillingPlanType, field: prefix + "commitmentRenewalBillingPlanType")
        {
            warnings.append(warning)
        }
        return warnings
    }
}
