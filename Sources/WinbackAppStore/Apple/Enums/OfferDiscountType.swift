/// Apple's `OfferDiscountType` values (wire type: string), as listed in Apple's App Store Server Library.
///
/// Models store the raw wire value; this typed view is `nil` for a value Apple added after this list.
public enum OfferDiscountType: String, AppleEnum {
    case freeTrial = "FREE_TRIAL"
    case payAsYouGo = "PAY_AS_YOU_GO"
    case payUpFront = "PAY_UP_FRONT"
    case oneTime = "ONE_TIME"
}
