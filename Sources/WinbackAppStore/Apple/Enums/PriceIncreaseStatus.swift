/// Apple's `PriceIncreaseStatus` values (wire type: integer), as listed in Apple's App Store Server Library.
///
/// Models store the raw wire value; this typed view is `nil` for a value Apple added after this list.
public enum PriceIncreaseStatus: Int32, AppleEnum {
    case customerHasNotResponded = 0
    case customerConsentedOrWasNotifiedWithoutNeedingConsent = 1
}
