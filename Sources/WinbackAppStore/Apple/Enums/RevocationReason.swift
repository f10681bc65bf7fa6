/// Apple's `RevocationReason` values (wire type: integer), as listed in Apple's App Store Server Library.
///
/// Models store the raw wire value; this typed view is `nil` for a value Apple added after this list.
public enum RevocationReason: Int32, AppleEnum {
    case refundedDueToIssue = 1
    case refundedForOtherReason = 0
}
