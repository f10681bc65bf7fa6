import WinbackAnalytics

/// A campaign's `rules` (docs/campaigns.md). Rules an audience does not use are allowed and ignored.
public struct CampaignRules: Sendable, Equatable {
    /// win_back: minimum consecutive paid days (default 0).
    public var minPaidDays: Int64 = 0
    /// win_back: days since the lapse, inclusive window (defaults 0 and 36500).
    public var minDaysSinceLapse: Int64 = 0
    /// win_back: the upper bound of the days-since-lapse window, inclusive (default 36500).
    public var maxDaysSinceLapse: Int64 = 36_500
    /// win_back: allowed lapse reasons (required for win_back).
    public var lapseReasons: Set<LapseReason> = []
    /// retention: the account qualifies only when auto-renew was turned off (`auto_renew_disabled_at`) at
    /// most this many whole days before `T` (docs/notifications-and-commitments.md); `nil` = no such rule.
    public var maxDaysSinceAutoRenewDisabled: Int64?
    /// retention, price_increase: days to expiry, `0…maxDaysToExpiry` (required for them).
    public var maxDaysToExpiry: Int64?
    /// Storefront filter on the latest transaction; `nil` = no filter, `[]` = nothing.
    public var storefronts: Set<String>?
    /// Product filter on the latest transaction; `nil` = no filter, `[]` = nothing.
    public var productIds: Set<String>?
    /// retention, price_increase, billing_issue: the subscription's `renewal_outlook` row has a
    /// `renewal_probability` of at most this, in millionths (docs/renewal-outlook.md); `nil` = no such rule.
    public var maxRenewalProbability: Int64?
    /// retention, price_increase, billing_issue: … an `expected_proceeds_12m` of at least this, reporting-currency
    /// milliunits; `nil` = no such rule.
    public var minExpectedProceeds12m: Int64?

    /// Whether the rules read the subscription's `renewal_outlook` row (an account without one does not qualify).
    public var usesRenewalOutlook: Bool { maxRenewalProbability != nil || minExpectedProceeds12m != nil }

    /// Whether a `renewal_outlook` row with this probability (millionths) and expected proceeds passes the rules.
    public func admitsOutlook(probability: Int64, expectedProceeds12m: Int64?) -> Bool {
        if let maxRenewalProbability, probability > maxRenewalProbability { return false }
        if let minExpectedProceeds12m {
            guard let expected = expectedProceeds12m, expected >= minExpectedProceeds12m else { return false }
        }
        return true
    }

    /// The default rules: every bound open, no lapse reason allowed.
    public init() {}
}
