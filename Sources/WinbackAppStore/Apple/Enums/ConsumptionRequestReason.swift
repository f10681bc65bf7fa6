/// Apple's `ConsumptionRequestReason` values (wire type: string), as listed in Apple's App Store Server Library.
///
/// Models store the raw wire value; this typed view is `nil` for a value Apple added after this list.
public enum ConsumptionRequestReason: String, AppleEnum {
    case unintendedPurchase = "UNINTENDED_PURCHASE"
    case fulfillmentIssue = "FULFILLMENT_ISSUE"
    case unsatisfiedWithPurchase = "UNSATISFIED_WITH_PURCHASE"
    case legal = "LEGAL"
    case other = "OTHER"
}
