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
        var firstCharge = Int64.max
        var firstPaid = Int64.max
        for timeline in timelines where timeline.isSale {
            for transaction in timeline.transactions {
                if transaction.isPaid { firstPaid = min(firstPaid, transaction.purchaseDate) }
                if (transaction.price ?? 0) > 0, transaction.currency != nil { firstCharge = min(firstCharge, transaction.purchaseDate) }
            }
        }
        revenueMonthly = RevenueReport(periods: firstCharge == .max ? [] : calendar.months(from: firstCharge))
        revenueDaily = RevenueReport(periods: calendar.days(count: 90))
        ltv = LTVCohortsReport(months: firstPaid == .max ? [] : calendar.months(from: firstPaid), calendar: calendar)
        for timeline in timelines where timeline.isSale {
            let events = timeline.moneyEvents(context)
            revenueMonthly.add(events, of: timeline, context: context)
            revenueDaily.add(events, of: timeline, context: context)
            ltv.add(events, of: timeline, context: context)
        }
        mrr = MRRReport(periods: months, timelines: timelines, context: context)
        currency = context.settings.currency
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
