import WinbackAppStore

/// The four money tables of one run (docs/money.md), built in one pass over the subscriptions for revenue and
/// LTV and one over their coverage for MRR.
public struct MoneyReports: Sendable {
    /// `revenue_monthly`: the months from the first charge through `D`'s.
    public var revenueMonthly: RevenueReport
    /// `revenue_daily`: the 90 days ending `D`.
    public var revenueDaily: RevenueReport
    /// `mrr_monthly`.
    public var mrr: MRRReport
    /// `ltv_cohorts`.
    public var ltv: LTVCohortsReport
    /// The reporting currency, if any.
    public var currency: String?

    /// The tables for `timelines` (all subscriptions; only sales count) through `context`; `months` are
    /// the MRR months (`churn_monthly`'s).
    public init(timelines: [SubscriptionTimeline], calendar: ReportCalendar, context: MoneyContext, months: [ReportPeriod]) {
        let wide = calendar.months(from: ReportTallies.earliestPurchase(timelines))
        let tallies = ReportTallies.money(timelines, calendar: calendar, context: context, months: wide)
        self.init(
            tallies: tallies, firstCharge: ReportTallies.firstCharge(timelines), firstPaid: ReportTallies.firstPaidSale(timelines),
            mrrMonths: months, calendar: calendar, currency: context.settings.currency)
    }

    /// The tables from the money counters of ``ReportTallies`` (one run's, or several shards' added): revenue
    /// months from the month of `firstCharge`, LTV cohort months from that of `firstPaid` (no months when
    /// `Int64.max`), MRR over `mrrMonths`.
    public init(
        tallies: ReportTallies.Money, firstCharge: Int64, firstPaid: Int64, mrrMonths: [ReportPeriod], calendar: ReportCalendar,
        currency: String?
    ) {
        revenueMonthly = RevenueReport(
            periods: firstCharge == .max ? [] : calendar.months(from: firstCharge), tally: tallies.revenueMonthly)
        revenueDaily = RevenueReport(periods: calendar.days(count: 90), tally: tallies.revenueDaily)
        ltv = LTVCohortsReport(months: firstPaid == .max ? [] : calendar.months(from: firstPaid), calendar: calendar, tally: tallies.ltv)
        mrr = MRRReport(periods: mrrMonths, tally: tallies.mrr)
        self.currency = currency
    }

    /// `summary.json.gz`'s `money` block for the month labelled `lastFullMonth`: `nil` (JSON null) without a
    /// reporting currency (the sums would mix currencies).
    public func summary(lastFullMonth: String) -> JSONValue {
        guard let currency else { return .null }
        let totals = revenueMonthly.totals(period: lastFullMonth)
        return JSONText.object([
            ("currency", .string(currency)),
            (
                "lastFullMonth",
                JSONText.object([
                    ("gross", .integer(totals.gross)), ("refunds", .integer(totals.refunds)),
                    ("net", .integer(totals.net)), ("proceeds", .integer(totals.proceeds)),
                    ("mrrEnd", .integer(mrr.mrrEnd(period: lastFullMonth))),
                ])
            ),
        ])
    }
}
