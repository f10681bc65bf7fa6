import WinbackAnalytics
import WinbackCore
import WinbackOutlook

/// Everything `report.html` shows, taken from the run's in-memory results: the same row strings that are
/// written to the CSV reports and the same counts that go into `summary.json.gz`, so the page never
/// computes a number differently from the files.
public struct ReportPageContent: Sendable {
    /// `YYYY-MM-DD` of the as-of day.
    public var asOf: String
    /// IANA time zone of the report periods.
    public var timeZone: String
    /// The `winback` version that wrote the page.
    public var toolVersion: String
    /// Number of input files read and their total size in bytes (as stored).
    public var inputFiles: Int
    /// Total size of the input files in bytes, as stored.
    public var inputBytes: Int
    /// The ingest's counts (read, accepted, rejected by code, duplicates, warnings).
    public var counts: IngestCounts
    /// Transactions purchased after the as-of instant, and non-subscription transactions (not modelled).
    public var future: Int
    /// Non-subscription transactions (not modelled).
    public var otherProductTypes: Int
    /// Subscriptions per status (family-shared excluded), in the summary's status order.
    public var subscriptionsByStatus: [(status: String, count: Int)]
    /// Family Sharing subscriptions (excluded from the status mix).
    public var familyShared: Int
    /// Whether offers were signed (false when the reject rate exceeded `report.maxRejectRate`).
    public var offersSigned: Bool
    /// `YYYY-MM` of the last full month (the summary's `lastFullMonth.month`).
    public var lastFullMonth: String
    /// Every month of `churn_monthly`, oldest first, including months without rows.
    public var months: [String]
    /// Rows of `churn_monthly.csv`, `expiration_reasons.csv`, `offer_usage.csv`, `retention_cohorts.csv`.
    public var churnMonthly: [ChurnReport.Row]
    /// Rows of `expiration_reasons.csv`.
    public var expirationReasons: [ExpirationReasonsReport.Row]
    /// Rows of `offer_usage.csv`.
    public var offerUsage: [OfferUsageReport.Row]
    /// Rows of `retention_cohorts.csv`.
    public var retentionCohorts: [RetentionCohortsReport.Row]
    /// Campaigns in id order.
    public var campaigns: [CampaignCounts]
    /// How recent the data is; a stale run's page opens with a banner naming both dates.
    public var freshness: DataFreshness?
    /// Rows of `events_daily.csv`.
    public var eventsDaily: [EventsDailyReport.Row] = []
    /// The reporting currency; `nil` when money stays in each transaction's currency.
    public var currency: String?
    /// Rows of `revenue_monthly.csv`.
    public var revenueMonthly: [RevenueReport.Row] = []
    /// Rows of `mrr_monthly.csv`.
    public var mrrMonthly: [MRRReport.Row] = []
    /// Rows of `ltv_cohorts.csv`.
    public var ltvCohorts: [LTVCohortsReport.Row] = []
    /// Rows of `campaign_outcomes.csv`.
    public var campaignOutcomes: [CampaignOutcomesReport.Row] = []
    /// Rows of `refund_requests.csv` (docs/refunds.md).
    public var refundRequests: [RefundRequestsReport.Row] = []
    /// `renewal_outlook`'s totals and backtest (docs/renewal-outlook.md).
    public var renewalOutlook: RenewalOutlookSummary?

    /// The content of one page; `freshness` adds the stale banner when the data is stale.
    public init(
        asOf: String, timeZone: String, toolVersion: String, inputFiles: Int, inputBytes: Int, counts: IngestCounts, future: Int,
        otherProductTypes: Int, subscriptionsByStatus: [(status: String, count: Int)], familyShared: Int, offersSigned: Bool,
        lastFullMonth: String, months: [String], churnMonthly: [ChurnReport.Row], expirationReasons: [ExpirationReasonsReport.Row],
        offerUsage: [OfferUsageReport.Row],
        retentionCohorts: [RetentionCohortsReport.Row], campaigns: [CampaignCounts], freshness: DataFreshness? = nil
    ) {
        self.asOf = asOf
        self.timeZone = timeZone
        self.toolVersion = toolVersion
        self.inputFiles = inputFiles
        self.inputBytes = inputBytes
        self.counts = counts
        self.future = future
        self.otherProductTypes = otherProductTypes
        self.subscriptionsByStatus = subscriptionsByStatus
        self.familyShared = familyShared
        self.offersSigned = offersSigned
        self.lastFullMonth = lastFullMonth
        self.months = months
        self.churnMonthly = churnMonthly
        self.expirationReasons = expirationReasons
        self.offerUsage = offerUsage
        self.retentionCohorts = retentionCohorts
        self.campaigns = campaigns
        self.freshness = freshness
    }
}
