import WinbackAnalytics
import WinbackCore
import WinbackOutlook

/// The aggregate report rows of a run, built once from the run's ``ReportTallies`` (one machine's, or the
/// shards' added: docs/sharding.md) and shared by the CSV writers, the summary and the page (so every number
/// appears the same everywhere).
public struct RunReports: Sendable {
    /// Monthly churn, one period per month through `D`'s.
    public var churnMonthly: ChurnReport
    /// Daily churn of the last 90 days.
    public var churnDaily: ChurnReport
    /// The rows of `churn_monthly.csv`, as written.
    public var churnMonthlyRows: [ChurnReport.Row]
    /// The rows of `churn_daily.csv`, as written.
    public var churnDailyRows: [ChurnReport.Row]
    /// The rows of `expiration_reasons.csv`, as written.
    public var expirationReasons: [ExpirationReasonsReport.Row]
    /// The rows of `offer_usage.csv`, as written.
    public var offerUsage: [OfferUsageReport.Row]
    /// The rows of `retention_cohorts.csv`, as written.
    public var retentionCohorts: [RetentionCohortsReport.Row]
    /// Subscriptions per status at `T`, Family Sharing excluded.
    public var subscriptionsByStatus: [SubscriptionStatus: Int]
    /// Family Sharing subscriptions.
    public var familyShared: Int
    /// Subscriptions in the model.
    public var subscriptions: Int
    /// Subscription transactions purchased at or after `T`.
    public var future: Int
    /// Transactions that are not auto-renewable subscriptions.
    public var otherProductTypes: Int
    /// The rows of `events_daily.csv`, as written.
    public var eventsDaily: [EventsDailyReport.Row]
    /// Revenue, MRR and LTV (docs/money.md).
    public var money: MoneyReports
    /// The rows of `campaign_outcomes.csv` (docs/campaigns.md), as written.
    public var campaignOutcomes: [CampaignOutcomesReport.Row] = []
    /// The rows of `refund_requests.csv` (docs/refunds.md), as written.
    public var refundRequests: [RefundRequestsReport.Row] = []
    /// `renewal_outlook`'s totals and backtest (docs/renewal-outlook.md).
    public var renewalOutlook = RenewalOutlookSummary()

    /// The tables of `tallies`: `churn_monthly` and `mrr_monthly` over the months from the first purchase of a
    /// non-family subscription through `D`'s; `currency` is the reporting currency.
    public init(_ tallies: ReportTallies, calendar: ReportCalendar, currency: String?) {
        let months = calendar.months(from: tallies.firstPurchase == .max ? calendar.asOf - 1 : tallies.firstPurchase)
        let productGroups = tallies.productGroups.mapValues(\.group)
        churnMonthly = ChurnReport(periods: months, tally: tallies.churnMonthly)
        churnDaily = ChurnReport(periods: calendar.days(count: 90), tally: tallies.churnDaily)
        churnMonthlyRows = churnMonthly.rows(productGroups: productGroups)
        churnDailyRows = churnDaily.rows(productGroups: productGroups)
        expirationReasons = ExpirationReasonsReport.rows(tallies.expirationReasons)
        offerUsage = OfferUsageReport.rows(tallies.offerUsage)
        retentionCohorts = RetentionCohortsReport.rows(tallies.retentionCohorts)
        eventsDaily = EventsDailyReport.rows(tallies.eventsDaily)
        money = MoneyReports(
            tallies: tallies.money, firstCharge: tallies.firstCharge, firstPaid: tallies.firstPaidSale, mrrMonths: months,
            calendar: calendar, currency: currency)
        subscriptionsByStatus = tallies.statuses
        familyShared = tallies.familyShared
        subscriptions = tallies.subscriptions
        future = tallies.future
        otherProductTypes = tallies.otherProductTypes
    }

    /// The reports of `model` on one machine.
    public static func of(_ model: SubscriptionModel, calendar: ReportCalendar, money: MoneyContext) async -> RunReports {
        RunReports(
            await ReportTallies.make(model, calendar: calendar, context: money), calendar: calendar, currency: money.settings.currency)
    }
}
