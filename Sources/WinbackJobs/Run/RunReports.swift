import WinbackCore

/// The aggregate report rows of a run, computed once from the model and shared by the CSV writers and the
/// summary (so every number appears the same everywhere).
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

    public init(model: SubscriptionModel, calendar: ReportCalendar) {
        let reportable = model.reportable
        let firstPurchase = reportable.compactMap { $0.transactions.first?.purchaseDate }.min() ?? (calendar.asOf - 1)
        churnMonthly = ChurnReport(periods: calendar.months(from: firstPurchase), timelines: reportable)
        churnDaily = ChurnReport(periods: calendar.days(count: 90), timelines: reportable)
        churnMonthlyRows = churnMonthly.rows(productGroups: model.productGroups)
        expirationReasons = ExpirationReasonsReport.rows(reportable)
        offerUsage = OfferUsageReport.rows(reportable)
        retentionCohorts = RetentionCohortsReport.rows(reportable, calendar: calendar)
        var byStatus: [SubscriptionStatus: Int] = [:]
        for timeline in reportable { byStatus[timeline.status, default: 0] += 1 }
        subscriptionsByStatus = byStatus
        familyShared = model.timelines.count - reportable.count
    }
}
