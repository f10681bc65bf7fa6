/// Apple's `RevocationType` values (wire type: string), as listed in Apple's App Store Server Library.
///
/// Models store the raw wire value; this typed view is `nil` for a value Apple added after this list.
public enum RevocationType: String, AppleEnum {
    case refundFull = "REFUND_FULL"
    case refundProrated = "REFUND_PRORATED"
    case familyRevoke = "FAMILY_REVOKE"
}
