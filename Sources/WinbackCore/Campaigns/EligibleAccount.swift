import WinbackAnalytics

/// One account selected for a campaign on a day: a row of `eligible_accounts` plus what signing needs.
public struct EligibleAccount: Sendable, Equatable {
    /// Variant of an account: `treatment` gets a signed offer, `holdout` is the control group.
    public enum Variant: String, Sendable {
        case treatment, holdout
    }

    /// The campaign that selected the account.
    public var campaignId: String
    /// `X.appAccountToken` lower-cased, else the `originalTransactionId`.
    public var accountKey: String
    /// The `originalTransactionId` of the subscription chosen for the account.
    public var originalTransactionId: String
    /// `treatment` (offered) or `holdout` (the control group).
    public var variant: Variant
    /// The campaign's audience.
    public var audience: Audience
    /// The offer's product.
    public var productId: String
    /// The offer to sign; `nil` for audiences without one (`billing_issue`).
    public var offerIdentifier: String?
    /// Consecutive paid days of the subscription's last span, in days.
    public var paidDays: Int64
    /// Whole days from the lapse to `T`; `nil` when the subscription has not lapsed.
    public var daysSinceLapse: Int64?
    /// Whole days from `T` to the current period's end; `nil` when not active.
    public var daysToExpiry: Int64?
    /// Why the last span ended; `nil` when it has not.
    public var lapseReason: LapseReason?
    /// `X.transactionId`, the V2/intro `transactionId` claim.
    public var transactionId: String
    /// Lower-case app account token, or `nil`.
    public var appAccountToken: String?
    /// The campaign's kind of offer (`offers.ndjson`'s `offerType`).
    public var offerKind: OfferKind = .promotional
    /// `R.eligibleWinBackOfferIds`: the win-back offers Apple lists for the subscription, or `nil`.
    public var eligibleWinBackOfferIds: [String]?

    /// An account row from its fields.
    public init(
        campaignId: String, accountKey: String, originalTransactionId: String, variant: Variant, audience: Audience, productId: String,
        offerIdentifier: String?, paidDays: Int64, daysSinceLapse: Int64? = nil, daysToExpiry: Int64? = nil,
        lapseReason: LapseReason? = nil,
        transactionId: String, appAccountToken: String?
    ) {
        self.campaignId = campaignId
        self.accountKey = accountKey
        self.originalTransactionId = originalTransactionId
        self.variant = variant
        self.audience = audience
        self.productId = productId
        self.offerIdentifier = offerIdentifier
        self.paidDays = paidDays
        self.daysSinceLapse = daysSinceLapse
        self.daysToExpiry = daysToExpiry
        self.lapseReason = lapseReason
        self.transactionId = transactionId
        self.appAccountToken = appAccountToken
    }

    /// The `eligible_accounts.csv.gz` row.
    public var row: EligibleAccountRow {
        EligibleAccountRow(
            campaignId: campaignId, accountKey: accountKey, originalTransactionId: originalTransactionId, variant: variant.rawValue,
            audience: audience.rawValue, productId: productId, offerIdentifier: offerIdentifier, paidDays: paidDays,
            daysSinceLapse: daysSinceLapse, daysToExpiry: daysToExpiry, lapseReason: lapseReason?.rawValue)
    }
}
