/// What a campaign offers (docs/notifications-and-commitments.md): a promotional offer, redeemed with the signatures of section 8, or
/// one of Apple's own win-back offers, configured in App Store Connect, whose eligibility the App Store
/// decides (`eligibleWinBackOfferIds`) and which StoreKit redeems without any signature, or an offer code.
public enum OfferKind: String, Sendable, CaseIterable {
    /// A promotional offer: signed (V1, V2, introductory eligibility), the default.
    case promotional
    /// An Apple win-back offer: unsigned; only `win_back` campaigns, only accounts Apple lists as eligible.
    case winBack = "win_back"
    /// An offer code (docs/campaigns.md): a one-time code from a pool exported from App Store Connect, or one custom
    /// code, redeemed from a redemption URL — the one discount a customer who left can use from an email.
    case offerCode = "offer_code"
    /// Retention Messaging only (docs/retention-messaging.md): a switch-plan message to `offer.productId`.
    case alternateProduct = "alternate_product"
    /// Retention Messaging only (docs/retention-messaging.md): the message alone.
    case message
}
