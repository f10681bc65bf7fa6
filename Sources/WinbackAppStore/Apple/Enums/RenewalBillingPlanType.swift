/// Apple's `RenewalBillingPlanType` values (wire type: string), as listed in Apple's App Store Server Library.
///
/// Models store the raw wire value; this typed view is `nil` for a value Apple added after this list.
public enum RenewalBillingPlanType: String, AppleEnum {
    case billedUpfront = "BILLED_UPFRONT"
    case monthly = "MONTHLY"
}
