/// One campaign's counts for a day: what the campaign stage counts, the summary's `offersPerCampaign` entry
/// and the page's campaigns table (one type, so the three never disagree).
public struct CampaignCounts: Sendable, Equatable {
    /// The campaign's id.
    public var id: String
    /// Accounts that passed the rules.
    public var eligible: Int
    /// Eligible accounts offered.
    public var treatment: Int
    /// Eligible accounts held out as control.
    public var holdout: Int
    /// Offers signed.
    public var signed: Int
    /// Offer-code campaigns with a code pool (docs/campaigns.md): codes still usable after tonight; `nil` otherwise.
    public var codesLeft: Int?
    /// Offer-code campaigns with a code pool: tonight's treatment accounts left without a code.
    public var codesShort: Int?

    /// A campaign's counts.
    public init(
        id: String, eligible: Int = 0, treatment: Int = 0, holdout: Int = 0, signed: Int = 0, codesLeft: Int? = nil,
        codesShort: Int? = nil
    ) {
        self.id = id
        self.eligible = eligible
        self.treatment = treatment
        self.holdout = holdout
        self.signed = signed
        self.codesLeft = codesLeft
        self.codesShort = codesShort
    }
}
