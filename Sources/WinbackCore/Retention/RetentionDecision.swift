/// One row of `retention_decisions.csv.gz` (docs/retention-messaging.md) without its key: what `winback serve` answers for a
/// subscription a Retention Messaging campaign selected.
public struct RetentionDecision: Sendable, Hashable {
    /// The campaign that selected the subscription.
    public var campaignId: String
    /// `treatment` or `holdout`.
    public var variant: String
    /// `promotional_offer`, `alternate_product` or `message`; `nil` on holdout rows.
    public var kind: String?
    /// The approved retention message's UUID; `nil` on holdout rows.
    public var messageIdentifier: String?
    /// The product the answer names (an alternate product, or a promotional offer's own product).
    public var productId: String?
    /// A promotional offer's identifier.
    public var offerIdentifier: String?
    /// An alternate product's billing plan, Apple's raw value (`MONTHLY`).
    public var billingPlanType: String?

    /// A decision from its columns.
    public init(
        campaignId: String, variant: String, kind: String?, messageIdentifier: String?, productId: String?, offerIdentifier: String?,
        billingPlanType: String?
    ) {
        self.campaignId = campaignId
        self.variant = variant
        self.kind = kind
        self.messageIdentifier = messageIdentifier
        self.productId = productId
        self.offerIdentifier = offerIdentifier
        self.billingPlanType = billingPlanType
    }

    /// Whether the subscription is in the campaign's treatment group.
    public var isTreatment: Bool { variant == EligibleAccount.Variant.treatment.rawValue }
}
