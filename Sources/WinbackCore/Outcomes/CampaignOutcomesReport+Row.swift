import WinbackAnalytics

extension CampaignOutcomesReport {
    /// A row of `campaign_outcomes`: one campaign, selection day (or the pooled mature cohorts) and window.
    public struct Row: TableRow, Equatable {
        /// `campaign_id`.
        public var campaignId: String
        /// `selected_on`, `YYYY-MM-DD`; `nil` for the pooled row.
        public var selectedOn: String?
        /// `window_days`.
        public var windowDays: Int64
        /// `audience`; `nil` on a pooled row whose cohorts differ.
        public var audience: String?
        /// `offer_identifier`; `nil` without one, or on a pooled row whose cohorts differ.
        public var offerIdentifier: String?
        /// `mature`: the window has ended by `T`.
        public var mature: Bool
        /// `treatment_accounts`, `treatment_redeemed`, `treatment_converted` and `treatment_net`.
        public var treatment: VariantCounts
        /// `holdout_accounts`, `holdout_redeemed`, `holdout_converted` and `holdout_net`.
        public var holdout: VariantCounts
        /// The reporting currency; `nil` without one (the net columns are then empty).
        public var currency: String?
        /// `lift` in millionths; `nil` unless both variants have accounts.
        public var lift: Int64?
        /// `lift_ci_low`, `lift_ci_high`: the 95 % Newcombe interval, in millionths.
        public var liftInterval: (low: Int64, high: Int64)?
        /// `cs_low`, `cs_high`: the anytime-valid confidence sequence, in millionths.
        public var sequence: (low: Int64, high: Int64)?
        /// `p_always_valid`, in millionths.
        public var pAlwaysValid: Int64?
        /// `srm_p`: the split check's p-value, in millionths; `nil` without a configured holdout share.
        public var srmP: Int64?

        /// A row of counts, its statistics not yet set.
        public init(
            campaignId: String, selectedOn: String?, windowDays: Int64, audience: String?, offerIdentifier: String?, mature: Bool,
            treatment: VariantCounts, holdout: VariantCounts, currency: String?
        ) {
            self.campaignId = campaignId
            self.selectedOn = selectedOn
            self.windowDays = windowDays
            self.audience = audience
            self.offerIdentifier = offerIdentifier
            self.mature = mature
            self.treatment = treatment
            self.holdout = holdout
            self.currency = currency
        }

        /// `treatment_rate`: converted over accounts, in millionths.
        public var treatmentRate: Int64? { RateFormat.millionths(treatment.converted, treatment.accounts) }
        /// `holdout_rate`: converted over accounts, in millionths.
        public var holdoutRate: Int64? { RateFormat.millionths(holdout.converted, holdout.accounts) }

        /// Hands the row's values to `fields`, in the schema's column order.
        public func write(to fields: inout some RowFields) {
            fields.text(campaignId)
            fields.date(label: selectedOn)
            fields.integer(windowDays)
            fields.text(audience)
            fields.text(offerIdentifier)
            fields.boolean(mature)
            for count in [treatment.accounts, treatment.redeemed, treatment.converted] { fields.integer(Int64(count)) }
            fields.rate(treatmentRate)
            for count in [holdout.accounts, holdout.redeemed, holdout.converted] { fields.integer(Int64(count)) }
            fields.rate(holdoutRate)
            fields.rate(lift)
            fields.rate(liftInterval?.low)
            fields.rate(liftInterval?.high)
            fields.rate(sequence?.low)
            fields.rate(sequence?.high)
            fields.rate(pAlwaysValid)
            fields.rate(srmP)
            fields.money(currency == nil ? nil : treatment.net)
            fields.money(currency == nil ? nil : holdout.net)
            fields.text(currency)
        }

        /// Rows are equal when every cell is.
        public static func == (lhs: Row, rhs: Row) -> Bool { lhs.cells == rhs.cells }
    }
}
