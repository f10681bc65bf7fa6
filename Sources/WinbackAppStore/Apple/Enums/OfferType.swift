/// Apple's `OfferType` values (wire type: integer), as listed in Apple's App Store Server Library.
///
/// Models store the raw wire value; this typed view is `nil` for a value Apple added after this list.
public enum OfferType: Int32, AppleEnum {
    case introductoryOffer = 1
    case promotionalOffer = 2
    case offerCode = 3
    case winBackOffer = 4
    /// A retention offer, chosen by the App Store from Retention Messaging in App Store Connect (docs/campaigns.md).
    case retentionOffer = 5
}
