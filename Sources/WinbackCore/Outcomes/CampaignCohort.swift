/// The accounts one campaign selected on one day, as the ledger keeps them (docs/campaigns.md): intent to treat,
/// so a treatment account counts whether or not the app showed it the offer.
public struct CampaignCohort: Sendable, Equatable {
    /// One selected account.
    public struct Member: Sendable, Equatable {
        /// The subscription it was selected through.
        public var originalTransactionId: String
        /// Treatment (offered) or holdout (not).
        public var variant: EligibleAccount.Variant
        /// The offer it was selected for (an Apple win-back offer without an identifier in the config is the
        /// account's own first eligible one); `nil` when none, and then nothing can be redeemed.
        public var offerIdentifier: String?

        /// A member from its parts.
        public init(originalTransactionId: String, variant: EligibleAccount.Variant, offerIdentifier: String? = nil) {
            self.originalTransactionId = originalTransactionId
            self.variant = variant
            self.offerIdentifier = offerIdentifier
        }
    }

    /// The campaign.
    public var campaignId: String
    /// The selection day `S`, `YYYY-MM-DD`.
    public var selectedOn: String
    /// `T_S`: the instant `S + 1` starts in the report time zone, epoch ms (the windows start there).
    public var windowStart: Int64
    /// The campaign's audience raw value (`win_back`, `retention`, …).
    public var audience: String
    /// The selected accounts.
    public var members: [Member]

    /// A cohort from its parts.
    public init(campaignId: String, selectedOn: String, windowStart: Int64, audience: String, members: [Member]) {
        self.campaignId = campaignId
        self.selectedOn = selectedOn
        self.windowStart = windowStart
        self.audience = audience
        self.members = members
    }

    /// The offer of every member when they share one (the `offer_identifier` column), else `nil`.
    public var offerIdentifier: String? {
        guard let first = members.first?.offerIdentifier, members.allSatisfy({ $0.offerIdentifier == first }) else { return nil }
        return first
    }
}
