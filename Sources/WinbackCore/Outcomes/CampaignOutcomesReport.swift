import WinbackAnalytics
import WinbackAppStore

/// `campaign_outcomes` (docs/campaigns.md): per campaign, selection day and window, how often the treated accounts
/// came back (or renewed, or paid) against the holdout, with the lift's 95 % Newcombe interval.
///
/// For a cohort selected on `S`, window `w` ∈ {7, 30, 60, 90} days is `[T_S, min(T_S + w days, T))`, and
/// `mature` when it has ended by `T`. An account (through the subscription it was selected with):
/// - **converted**: a paid transaction (not a free trial) not revoked before `T`, purchased in the window,
///   starting a period the customer chose (not a later instalment of a commitment, billing period > 1);
/// - **redeemed**: a transaction in the window with the selection's offer identifier and offer type 2
///   (promotional), 3 (offer code), 4 (win-back) or 5 (retention) (docs/campaigns.md).
///
/// `lift = treatment_rate − holdout_rate` (exact, rounded once); `treatment_net` / `holdout_net` are the
/// variants' charges minus refunds dated in the window, in the reporting currency. Each campaign also gets,
/// per window, a pooled row (empty `selected_on`) summing its mature cohorts.
///
/// Beside the fixed interval each row carries the anytime-valid one (``ConfidenceSequence``: `cs_low`,
/// `cs_high`, `p_always_valid`) and the split check (``SampleRatioCheck``: `srm_p`), docs/campaigns.md. Each account
/// counts once per campaign, in the cohort of its first selection (the ledger gives only those).
///
/// Example: 56 of 70 treated and 48 of 80 held out converted: rates 0.8 and 0.6, lift 0.2, interval
/// 0.052427 to 0.333874; with `plannedAccounts` 1000 the sequence −0.056707 to 0.456707.
public enum CampaignOutcomesReport {
    /// What today's config says of a campaign that the statistics need.
    public struct Design: Sendable, Equatable {
        /// `plannedAccounts` (default 1000).
        public var plannedAccounts: Int
        /// `holdoutPercent`; `nil` for a campaign no longer in the config (no split check then).
        public var holdoutPercent: Double?

        /// A design from its parts.
        public init(plannedAccounts: Int = 1000, holdoutPercent: Double?) {
            self.plannedAccounts = plannedAccounts
            self.holdoutPercent = holdoutPercent
        }
    }

    /// The windows, in days.
    public static let windows: [Int64] = [7, 30, 60, 90]

    /// The counts of one variant in one window.
    public struct VariantCounts: Sendable, Equatable {
        /// Accounts selected.
        public var accounts = 0
        /// Of them, those who redeemed the offer in the window.
        public var redeemed = 0
        /// Of them, those who converted in the window.
        public var converted = 0
        /// Charges minus refunds of their subscriptions dated in the window (reporting currency, milliunits).
        public var net: Int64 = 0

        mutating func add(_ other: VariantCounts) {
            accounts += other.accounts
            redeemed += other.redeemed
            converted += other.converted
            net &+= other.net
        }
    }

    /// The rows of `campaign_outcomes.csv.gz`, sorted by campaign, selection day (pooled rows first) and window.
    /// `timelines` holds at least the cohorts' subscriptions by `originalTransactionId`; `asOf` is `T`.
    /// `designs` gives each campaign's `plannedAccounts` and `holdoutPercent` (a campaign not in it: the
    /// default tuning, no split check).
    public static func rows(
        _ cohorts: [CampaignCohort], timelines: [String: SubscriptionTimeline], asOf: Int64, context: MoneyContext,
        designs: [String: Design] = [:]
    ) -> [Row] {
        rows(
            cohorts, members: memberTally(cohorts, timelines: timelines, asOf: asOf, context: context), asOf: asOf,
            currency: context.settings.currency, designs: designs)
    }

    /// What each member's subscription found in `timelines` did in each window, keyed `[campaign, selection day,
    /// originalTransactionId, window days]`: converted (0 or 1), redeemed (0 or 1), net (milliunits of the
    /// reporting currency; 0 without one). A shard measures the members whose subscriptions it owns; the
    /// merge adds the shards' tallies (docs/sharding.md).
    public static func memberTally(
        _ cohorts: [CampaignCohort], timelines: [String: SubscriptionTimeline], asOf: Int64, context: MoneyContext
    ) -> TallyTable {
        var table = TallyTable()
        for cohort in cohorts {
            for member in cohort.members {
                guard let timeline = timelines[member.originalTransactionId] else { continue }
                for window in windows {
                    let range = cohort.windowStart..<min(cohort.windowStart + window * InstantFormat.day, asOf)
                    let net = context.settings.currency == nil ? 0 : net(timeline, in: range, context: context)
                    table.add(
                        [cohort.campaignId, cohort.selectedOn, member.originalTransactionId, String(window)],
                        [converts(timeline, in: range) ? 1 : 0, redeems(timeline, offer: member.offerIdentifier, in: range) ? 1 : 0, net])
                }
            }
        }
        return table
    }

    /// The rows from the cohorts and their members' ``memberTally(_:timelines:asOf:context:)`` (a member without
    /// one counts as selected, nothing more). `currency` is the reporting currency.
    public static func rows(
        _ cohorts: [CampaignCohort], members: TallyTable, asOf: Int64, currency: String?, designs: [String: Design] = [:]
    ) -> [Row] {
        var rows: [(campaign: String, day: String, window: Int64, row: Row)] = []
        var pooled: [String: [Int64: (treatment: VariantCounts, holdout: VariantCounts, cohorts: [CampaignCohort])]] = [:]
        for cohort in cohorts {
            for window in windows {
                let mature = cohort.windowStart + window * InstantFormat.day <= asOf
                var treatment = VariantCounts()
                var holdout = VariantCounts()
                for member in cohort.members {
                    var counts = VariantCounts()
                    counts.accounts = 1
                    if let measured = members.counts[[cohort.campaignId, cohort.selectedOn, member.originalTransactionId, String(window)]],
                        measured.count == 3
                    {
                        counts.converted = Int(measured[0])
                        counts.redeemed = Int(measured[1])
                        counts.net = measured[2]
                    }
                    if member.variant == .treatment { treatment.add(counts) } else { holdout.add(counts) }
                }
                rows.append(
                    (
                        cohort.campaignId, cohort.selectedOn, window,
                        row(
                            cohort.campaignId, selectedOn: cohort.selectedOn, window: window, audience: cohort.audience,
                            offer: cohort.offerIdentifier, mature: mature, treatment, holdout, currency: currency,
                            design: designs[cohort.campaignId] ?? Design(holdoutPercent: nil))
                    ))
                if mature {
                    var entry = pooled[cohort.campaignId, default: [:]][window] ?? (VariantCounts(), VariantCounts(), [])
                    entry.treatment.add(treatment)
                    entry.holdout.add(holdout)
                    entry.cohorts.append(cohort)
                    pooled[cohort.campaignId, default: [:]][window] = entry
                }
            }
        }
        for (campaign, byWindow) in pooled {
            for (window, entry) in byWindow {
                // The pooled row names the audience and offer when its cohorts agree on them.
                let audiences = Set(entry.cohorts.map(\.audience))
                let offers = Set(entry.cohorts.map(\.offerIdentifier))
                rows.append(
                    (
                        campaign, "", window,
                        row(
                            campaign, selectedOn: nil, window: window, audience: audiences.count == 1 ? audiences.first : nil,
                            offer: offers.count == 1 ? offers.first ?? nil : nil, mature: true, entry.treatment, entry.holdout,
                            currency: currency, design: designs[campaign] ?? Design(holdoutPercent: nil))
                    ))
            }
        }
        rows.sort { a, b in
            if a.campaign != b.campaign { return CodePointOrder.less(a.campaign, b.campaign) }
            if a.day != b.day { return a.day < b.day }
            return a.window < b.window
        }
        return rows.map(\.row)
    }

    /// Whether the subscription converted in `window`.
    static func converts(_ timeline: SubscriptionTimeline, in window: Range<Int64>) -> Bool {
        timeline.transactions.indices.contains { index in
            let transaction = timeline.transactions[index]
            return transaction.isPaid && timeline.revocation(index) == nil && window.contains(transaction.purchaseDate)
                && (transaction.commitmentBillingPeriodNumber ?? 1) <= 1
        }
    }

    /// Whether the subscription redeemed `offer` (as a promotional, offer-code, win-back or retention offer) in
    /// `window`.
    static func redeems(_ timeline: SubscriptionTimeline, offer: String?, in window: Range<Int64>) -> Bool {
        guard let offer else { return false }
        return timeline.transactions.contains { transaction in
            window.contains(transaction.purchaseDate) && transaction.offerIdentifier == offer
                && (2...5).contains(transaction.offerType ?? 0)
        }
    }

    /// Charges minus refunds of the subscription dated in `window`, converted (unconverted ones left out).
    static func net(_ timeline: SubscriptionTimeline, in window: Range<Int64>, context: MoneyContext) -> Int64 {
        timeline.moneyEvents(context).reduce(0) { total, event in
            guard window.contains(event.instant), let amount = event.amount, event.kind != .unpriced else { return total }
            return event.kind == .refund ? total &- amount : total &+ amount
        }
    }

    static func row(
        _ campaign: String, selectedOn: String?, window: Int64, audience: String?, offer: String?, mature: Bool,
        _ treatment: VariantCounts, _ holdout: VariantCounts, currency: String?, design: Design
    ) -> Row {
        var row = Row(
            campaignId: campaign, selectedOn: selectedOn, windowDays: window, audience: audience, offerIdentifier: offer, mature: mature,
            treatment: treatment, holdout: holdout, currency: currency)
        if treatment.accounts > 0, holdout.accounts > 0,
            let interval = ProportionInterval.newcombe(treatment.converted, of: treatment.accounts, holdout.converted, of: holdout.accounts)
        {
            let numerator = Int128(treatment.converted) * Int128(holdout.accounts) - Int128(holdout.converted) * Int128(treatment.accounts)
            row.lift = RateFormat.millionths(numerator, over: Int128(treatment.accounts) * Int128(holdout.accounts))
            row.liftInterval = (RateFormat.millionths(interval.low), RateFormat.millionths(interval.high))
        }
        if let sequence = ConfidenceSequence(
            treatmentConverted: treatment.converted, of: treatment.accounts, holdoutConverted: holdout.converted, of: holdout.accounts,
            plannedAccounts: design.plannedAccounts)
        {
            row.sequence = (RateFormat.millionths(sequence.low), RateFormat.millionths(sequence.high))
            row.pAlwaysValid = RateFormat.millionths(sequence.pValue)
        }
        row.srmP = design.holdoutPercent.flatMap {
            SampleRatioCheck.pValue(treatment: treatment.accounts, holdout: holdout.accounts, holdoutPercent: $0)
        }.map(RateFormat.millionths)
        return row
    }

    /// A row whose split check failed (`srm_p` below ``SampleRatioCheck/alarmThreshold``).
    public struct SplitAlarm: Sendable, Equatable {
        /// The campaign.
        public var campaignId: String
        /// The cohort's selection day; `nil` for a pooled row.
        public var selectedOn: String?
        /// The window, in days.
        public var windowDays: Int
        /// The split's p-value, as written in the table (6 decimals).
        public var srmP: String

        /// `{"campaignId", "selectedOn", "windowDays", "srmP"}` for `summary.json.gz`.
        public var json: JSONValue {
            JSONText.object([
                ("campaignId", .string(campaignId)), ("selectedOn", selectedOn.map(JSONValue.string) ?? .null),
                ("windowDays", .integer(Int64(windowDays))), ("srmP", .double(Double(srmP) ?? 0)),
            ])
        }

        /// The stderr warning.
        public var warning: String {
            "warning: split alarm: campaign '\(campaignId)', \(selectedOn.map { "cohort selected on \($0)" } ?? "pooled cohorts"), "
                + "\(windowDays)-day window: srm_p = \(srmP) < \(SampleRatioCheck.alarmThreshold); treatment and holdout are not in the "
                + "configured proportion (a defect in selection, cooldown or the ledger); do not act on this lift"
        }
    }

    /// The split alarms among `rows` (rows of this table, in its order).
    public static func splitAlarms(_ rows: [Row]) -> [SplitAlarm] {
        rows.compactMap { row in
            guard let p = row.srmP, RateFormat.value(millionths: p) < SampleRatioCheck.alarmThreshold else { return nil }
            return SplitAlarm(
                campaignId: row.campaignId, selectedOn: row.selectedOn, windowDays: Int(row.windowDays),
                srmP: RateFormat.text(millionths: p))
        }
    }
}
