import WinbackCore

/// The aggregate report rows of a run, computed once from the model and shared by the CSV writers, the
/// summary and the page (so every number appears the same everywhere).
public struct RunReports: Sendable {
    public var churnMonthly: ChurnReport
    public var churnDaily: ChurnReport
    /// The rows of `churn_monthly.csv`, as written.
    public var churnMonthlyRows: [[String?]]
    public var expirationReasons: [[String?]]
    public var offerUsage: [[String?]]
    public var retentionCohorts: [[String?]]
    public var subscriptionsByStatus: [SubscriptionStatus: Int]
    public var familyShared: Int

    /// Computes the independent reports concurrently (they only read the model).
    public static func concurrent(model: SubscriptionModel, calendar: ReportCalendar) async -> RunReports {
        let reportable = model.reportable
        async let monthly = { () -> (ChurnReport, [[String?]]) in
            let report = ChurnReport(periods: months(reportable, calendar: calendar), timelines: reportable)
            return (report, report.rows(productGroups: model.productGroups))
        }()
        async let daily = ChurnReport(periods: calendar.days(count: 90), timelines: reportable)
        async let expiration = ExpirationReasonsReport.rows(reportable)
        async let offers = OfferUsageReport.rows(reportable)
        async let cohorts = RetentionCohortsReport.rows(reportable, calendar: calendar)
        let (churnMonthly, churnMonthlyRows) = await monthly
        return await RunReports(
            churnMonthly: churnMonthly, churnDaily: daily, churnMonthlyRows: churnMonthlyRows, expirationReasons: expiration, offerUsage: offers,
            retentionCohorts: cohorts, model: model, reportable: reportable)
    }

    private init(
        churnMonthly: ChurnReport, churnDaily: ChurnReport, churnMonthlyRows: [[String?]], expirationReasons: [[String?]], offerUsage: [[String?]],
        retentionCohorts: [[String?]], model: SubscriptionModel, reportable: [SubscriptionTimeline]
    ) {
        self.churnMonthly = churnMonthly
        self.churnDaily = churnDaily
        self.churnMonthlyRows = churnMonthlyRows
        self.expirationReasons = expirationReasons
        self.offerUsage = offerUsage
        self.retentionCohorts = retentionCohorts
        var byStatus: [SubscriptionStatus: Int] = [:]
        for timeline in reportable { byStatus[timeline.status, default: 0] += 1 }
        subscriptionsByStatus = byStatus
        familyShared = model.timelines.count - reportable.count
    }

    /// The months of `churn_monthly`: from the month of the first purchase to the as-of month.
    static func months(_ reportable: [SubscriptionTimeline], calendar: ReportCalendar) -> [ReportPeriod] {
        let firstPurchase = reportable.compactMap { $0.transactions.first?.purchaseDate }.min() ?? (calendar.asOf - 1)
        return calendar.months(from: firstPurchase)
    }
}
