/// One campaign of the config (docs/campaigns.md), validated.
public struct Campaign: Sendable, Equatable {
    /// The campaign's `id`: unique, used in the ledger, the reports and the holdout hash.
    public var id: String
    /// Who the campaign is for (`win_back`, `retention`, `price_increase`, `billing_issue`).
    public var audience: Audience
    /// The offer's product; `nil` = the renewal info's `autoRenewProductId`, else the latest transaction's product.
    public var offerProductId: String?
    /// Required for signed promotional offers, except intro-only campaigns; `nil` for `billing_issue`, and
    /// for a win-back offer it means Apple's first eligible id.
    public var offerIdentifier: String?
    /// `offer.offerIdentifiers` (docs/campaigns.md): for an Apple win-back offer, the offers the campaign may give, in
    /// no particular order of its own — an account gets the first id of its `eligibleWinBackOfferIds` (Apple's
    /// order, best first) that is in the list, and qualifies only with one. `nil` when not given.
    public var offerIdentifiers: [String]?
    /// `offer.codes` (docs/campaigns.md): the one-time code pool, a CSV file relative to the config (an offer-code
    /// campaign has this or ``customCode``).
    public var offerCodesFile: String?
    /// `offer.customCode` (docs/campaigns.md): one code for every treated account.
    public var customCode: String?
    /// `channel` (docs/retention-messaging.md): offers in `offers.ndjson.gz` (default) or Retention Messaging.
    public var channel: CampaignChannel = .offers
    /// `messageIdentifier` (docs/retention-messaging.md): the UUID of the approved retention message; Retention Messaging only.
    public var messageIdentifier: String?
    /// `offer.billingPlanType` (docs/retention-messaging.md): an alternate product's billing plan, Apple's raw value (`MONTHLY`).
    public var billingPlanType: String?
    /// `offer.type`: a signed promotional offer (default), an unsigned Apple win-back offer, or an offer code.
    public var offerKind: OfferKind
    /// The audience's eligibility rules.
    public var rules: CampaignRules
    /// Share of accounts held out as control, 0…100 (fractions allowed).
    public var holdoutPercent: Double
    /// Days an account stays excluded after an entry in the ledger for this campaign.
    public var cooldownDays: Int64
    /// Cap on eligible accounts (before the holdout split); `nil` = unlimited.
    public var maxOffers: Int?
    /// `plannedAccounts` (docs/campaigns.md): the accounts (both variants) of a window at which the campaign expects
    /// to decide; the confidence sequence is narrowest there. Default 1000.
    public var plannedAccounts: Int = 1000
    /// What to sign per treatment offer (empty for `billing_issue`).
    public var signatures: [SignatureKind]
    /// The `allowIntroductoryOffer` claim; present iff `intro` is signed.
    public var allowIntroductoryOffer: Bool?

    /// Whether treatment accounts get signed offers in the run: a promotional offer of a signed audience,
    /// sent as offers (a Retention Messaging offer is signed when the App Store asks for it).
    public var isSigned: Bool { audience.isSigned && offerKind == .promotional && channel == .offers }

    /// A campaign from its validated fields (``CampaignParser`` builds them from the config).
    public init(
        id: String, audience: Audience, offerProductId: String? = nil, offerIdentifier: String? = nil,
        offerKind: OfferKind = .promotional, rules: CampaignRules = CampaignRules(),
        holdoutPercent: Double = 0, cooldownDays: Int64 = 0, maxOffers: Int? = nil, signatures: [SignatureKind] = [],
        allowIntroductoryOffer: Bool? = nil
    ) {
        self.id = id
        self.audience = audience
        self.offerProductId = offerProductId
        self.offerIdentifier = offerIdentifier
        self.offerKind = offerKind
        self.rules = rules
        self.holdoutPercent = holdoutPercent
        self.cooldownDays = cooldownDays
        self.maxOffers = maxOffers
        self.signatures = signatures
        self.allowIntroductoryOffer = allowIntroductoryOffer
    }
}
