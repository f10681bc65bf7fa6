import WinbackCore

/// The aggregate report rows of a run, computed once from the model and shared by the CSV writers, the
/// summary and the page (so every number appears the same everywhere).
public struct RunReports: Sendable {
    /// Monthly churn, one period per month through `D`'s.
    public var churnMonthly: ChurnReport
    /// Daily churn of the last 90 days.
    public var churnDaily: ChurnReport
    /// The rows of `churn_monthly.csv`, as written.
    public var churnMonthlyRows: [[String?]]
    /// The rows of `expiration_reasons.csv`, as written.
    public var expirationReasons: [[String?]]
    /// The rows of `offer_usage.csv`, as written.
    public var offerUsage: [[String?]]
    /// The rows of `retention_cohorts.csv`, as written.
    public var retentionCohorts: [[String?]]
    /// Subscriptions per status at `T`, Family Sharing excluded.
    public var subscriptionsByStatus: [SubscriptionStatus: Int]
    /// Family Sharing subscriptions.
    public var familyShared: Int
    /// The rows of `events_daily.csv`, as written.
    public var eventsDaily: [[String?]] = []
    /// Revenue, MRR and LTV (docs/money.md).
    public var money: MoneyReports
    /// The rows of `campaign_outcomes.csv` (docs/campaigns.md), as written.
    public var campaignOutcomes: [[String?]] = []

    /// Computes the independent reports concurrently (they only read the model). Each report skips the
    /// Family Sharing timelines itself, so no filtered copy of the timelines is made.
    public static func concurrent(model: SubscriptionModel, calendar: ReportCalendar, money: MoneyContext) async -> RunReports {
        let timelines = model.timelines
        let churnMonths = months(timelines, calendar: calendar)
        async let monthly = { () -> (ChurnReport, [[String?]]) in
            let report = ChurnReport(periods: churnMonths, timelines: timelines)
            return (report, report.rows(productGroups: model.productGroups))
        }()
        async let moneyReports = MoneyReports(timelines: timelines, calendar: calendar, context: money, months: churnMonths)
        async let daily = ChurnReport(periods: calendar.days(count: 90), timelines: timelines)
        async let expiration = ExpirationReasonsReport.rows(timelines)
        async let offers = OfferUsageReport.rows(timelines)
        async let cohorts = RetentionCohortsReport.rows(timelines, calendar: calendar)
        let events = EventsDailyReport.rows(model.notificationEvents, calendar: calendar)
        let (churnMonthly, churnMonthlyRows) = await monthly
        var reports = await RunReports(
            churnMonthly: churnMonthly, churnDaily: daily, churnMonthlyRows: churnMonthlyRows, expirationReasons: expiration,
            offerUsage: offers,
            retentionCohorts: cohorts, money: moneyReports, model: model)
        reports.eventsDaily = events
        return reports
    }

    private init(
        churnMonthly: ChurnReport, churnDaily: ChurnReport, churnMonthlyRows: [[String?]], expirationReasons: [[String?]],
        offerUsage: [[String?]],
        retentionCohorts: [[String?]], money: MoneyReports, model: SubscriptionModel
    ) {
        self.money = money
        self.churnMonthly = churnMonthly
        self.churnDaily = churnDaily
        self.churnMonthlyRows = churnMonthlyRows
        self.expirationReasons = expirationReasons
        self.offerUsage = offerUsage
        self.retentionCohorts = retentionCohorts
        var byStatus: [SubscriptionStatus: Int] = [:]
        var familyShared = 0
        for timeline in model.timelines {
            if timeline.isFamilyShared { familyShared += 1 } else { byStatus[timeline.status, default: 0] += 1 }
        }
        subscriptionsByStatus = byStatus
        self.familyShared = familyShared
    }

    /// The months of `churn_monthly`: from the month of the first purchase of a reportable (not Family
    /// Sharing) subscription to the as-of month.
    static func months(_ timelines: [SubscriptionTimeline], calendar: ReportCalendar) -> [ReportPeriod] {
        var firstPurchase = Int64.max
        for timeline in timelines where !timeline.isFamilyShared {
            if let purchase = timeline.transactions.first?.purchaseDate { firstPurchase = min(firstPurchase, purchase) }
        }
        return calendar.months(from: firstPurchase == .max ? calendar.asOf - 1 : firstPurchase)
    }
}
