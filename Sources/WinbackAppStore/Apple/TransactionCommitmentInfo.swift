/// Apple's `TransactionCommitmentInfo` (a transaction's `commitmentInfo`, monthly subscriptions with a
/// 12-month commitment), keys verbatim; every field optional.
public struct TransactionCommitmentInfo: Sendable, Equatable {
    /// The billing period of the commitment this transaction pays for, from 1.
    public var billingPeriodNumber: Int32?
    /// When the commitment ends, epoch ms.
    public var commitmentExpiresDate: Int64?
    /// The price of the whole commitment, in milliunits of the transaction's currency.
    public var commitmentPrice: Int64?
    /// The number of billing periods of the commitment (12 for a year billed monthly).
    public var totalBillingPeriods: Int32?
    /// Members this version does not know, kept as they came so nothing Apple adds is lost.
    public var unknownFields: [JSONMember] = []

    /// A value from its fields (every one optional, as on the wire); instants in epoch ms.
    public init(
        billingPeriodNumber: Int32? = nil, commitmentExpiresDate: Int64? = nil, commitmentPrice: Int64? = nil,
        totalBillingPeriods: Int32? = nil
    ) {
        self.billingPeriodNumber = billingPeriodNumber
        self.commitmentExpiresDate = commitmentExpiresDate
        self.commitmentPrice = commitmentPrice
        self.totalBillingPeriods = totalBillingPeriods
    }

    /// Decodes from a JSON object's members; a present field of the wrong JSON type throws ``FieldError``
    /// naming it (`prefix` + key). `null` reads as absent. Unknown keys land in ``unknownFields``.
    public init(members: [JSONMember], prefix: String = "") throws(FieldError) {
        for member in members {
            switch member.key {
            case "billingPeriodNumber": billingPeriodNumber = try FieldValue.int32(member.value, field: prefix + "billingPeriodNumber")
            case "commitmentExpiresDate":
                commitmentExpiresDate = try FieldValue.instant(member.value, field: prefix + "commitmentExpiresDate")
            case "commitmentPrice": commitmentPrice = try FieldValue.int64(member.value, field: prefix + "commitmentPrice")
            case "totalBillingPeriods": totalBillingPeriods = try FieldValue.int32(member.value, field: prefix + "totalBillingPeriods")
            default: unknownFields.append(member)
            }
        }
    }
}
