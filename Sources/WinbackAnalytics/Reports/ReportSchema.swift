/// A report file's name and columns with their types (written to the manifest).
public struct ReportSchema: Sendable {
    /// The file name inside `dt=<D>/`.
    public var name: String
    /// Column names and types, in file order (empty for JSON files).
    public var columns: [(name: String, type: ColumnType)]

    /// One row per subscription or account: a night's large files (``gzipLevel``).
    public var isLarge: Bool

    /// A schema named `name` with `columns`.
    public init(name: String, columns: [(String, ColumnType)], isLarge: Bool = false) {
        self.name = name
        self.columns = columns.map { (name: $0.0, type: $0.1) }
        self.isLarge = isLarge
    }

    /// The zlib level of the file and its Parquet pages: 2 for the large files, nearly all of a night's deflate CPU
    /// (slightly larger files for much less CPU: docs/performance.md); 6 for the others.
    public var gzipLevel: Int32 { isLarge ? 2 : 6 }

    /// The CSV header line.
    public var header: String { CSVFormat.line(columns.map(\.name)) }

    static let churnCounts: [(String, ColumnType)] = [
        ("product_id", .string), ("billing_plan_type", .string), ("subscription_group_id", .string), ("active_start", .integer),
        ("active_end", .integer),
        ("new", .integer), ("reactivated", .integer), ("churned", .integer), ("churned_voluntary", .integer),
        ("churned_price_increase", .integer), ("churned_billing_error", .integer), ("churned_billing_retry", .integer),
        ("churned_product_unavailable", .integer), ("churned_other", .integer), ("churned_unknown", .integer),
        ("churned_refund", .integer), ("churned_returned", .integer), ("churn_rate", .rate),
    ]

    /// `subscriptions.csv.gz`: one row per subscription (docs/analysts.md).
    public static let subscriptions = ReportSchema(
        name: "subscriptions.csv.gz",
        columns: [
            ("original_transaction_id", .string), ("app_account_token", .string), ("app_transaction_id", .string),
            ("subscription_group_id", .string), ("product_id", .string), ("storefront", .string), ("ownership", .string),
            ("status", .string), ("first_purchase_date", .instant), ("current_period_start", .instant), ("current_period_end", .instant),
            ("lapsed_at", .instant), ("lapse_reason", .string), ("auto_renew_status", .integer), ("expiration_intent", .integer),
            ("price_increase_status", .integer), ("is_in_billing_retry", .boolean), ("grace_period_expires_date", .instant),
            ("paid_periods", .integer), ("paid_days", .integer), ("consecutive_paid_days", .integer), ("last_offer_type", .integer),
            ("last_offer_identifier", .string), ("eligible_win_back_offer_ids", .string), ("renewal_product_id", .string),
            ("billing_plan_type", .string), ("commitment_period_number", .integer), ("commitment_total_periods", .integer),
            ("commitment_expires_date", .instant), ("renewal_billing_plan_type", .string), ("auto_renew_disabled_at", .instant),
        ], isLarge: true)
    /// `events_daily.csv.gz`: accepted notifications (one per `notificationUUID`) per day of the last 90, type and subtype.
    public static let eventsDaily = ReportSchema(
        name: "events_daily.csv.gz",
        columns: [("day", .date), ("notification_type", .string), ("subtype", .string), ("notifications", .integer)])
    /// `churn_monthly.csv.gz`: one row per month and product.
    public static let churnMonthly = ReportSchema(name: "churn_monthly.csv.gz", columns: [("month", .month)] + churnCounts)
    /// `churn_daily.csv.gz`: one row per day of the last 90 and product.
    public static let churnDaily = ReportSchema(name: "churn_daily.csv.gz", columns: [("day", .date)] + churnCounts)
    /// `expiration_reasons.csv.gz`: expired subscriptions by product and reason.
    public static let expirationReasons = ReportSchema(
        name: "expiration_reasons.csv.gz",
        columns: [
            ("product_id", .string), ("lapse_reason", .string), ("expiration_intent", .integer), ("subscriptions", .integer),
            ("share", .rate),
        ])
    /// `offer_usage.csv.gz`: redemptions and outcomes per offer.
    public static let offerUsage = ReportSchema(
        name: "offer_usage.csv.gz",
        columns: [
            ("offer_type", .integer), ("offer_identifier", .string), ("offer_discount_type", .string), ("offer_period", .string),
            ("redemptions", .integer), ("active_in_offer", .integer), ("completed", .integer), ("converted", .integer),
            ("conversion_rate", .rate), ("refunded", .integer),
        ])
    /// `retention_cohorts.csv.gz`: retention by first-purchase month and period index.
    public static let retentionCohorts = ReportSchema(
        name: "retention_cohorts.csv.gz",
        columns: [
            ("cohort_month", .month), ("product_id", .string), ("billing_plan_type", .string), ("period_index", .integer),
            ("cohort_size", .integer),
            ("eligible", .integer), ("retained", .integer), ("retention_rate", .rate),
        ])
    static let revenueCounts: [(String, ColumnType)] = [
        ("product_id", .string), ("currency", .currency), ("charges", .integer), ("gross", .money), ("refunded", .integer),
        ("refunds", .money), ("net", .money), ("proceeds", .money), ("unpriced", .integer), ("unconverted", .integer),
    ]
    /// `revenue_monthly.csv.gz`: charges, refunds and proceeds per month, product and currency (docs/money.md).
    public static let revenueMonthly = ReportSchema(name: "revenue_monthly.csv.gz", columns: [("month", .month)] + revenueCounts)
    /// `revenue_daily.csv.gz`: the same per day of the last 90.
    public static let revenueDaily = ReportSchema(name: "revenue_daily.csv.gz", columns: [("day", .date)] + revenueCounts)
    /// `mrr_monthly.csv.gz`: monthly recurring revenue at each month's end per product, plan and currency.
    public static let mrrMonthly = ReportSchema(
        name: "mrr_monthly.csv.gz",
        columns: [
            ("month", .month), ("product_id", .string), ("billing_plan_type", .string), ("currency", .currency),
            ("active_paid_end", .integer), ("mrr_end", .money), ("arppu", .money), ("unpriced_active", .integer),
        ])
    /// `ltv_cohorts.csv.gz`: cumulative net revenue per first-purchase cohort and month index.
    public static let ltvCohorts = ReportSchema(
        name: "ltv_cohorts.csv.gz",
        columns: [
            ("cohort_month", .month), ("product_id", .string), ("currency", .currency), ("month_index", .integer),
            ("cohort_size", .integer),
            ("eligible", .integer), ("cumulative_net", .money), ("ltv", .money),
        ])
    /// `campaign_outcomes.csv.gz`: what earlier selections achieved, treatment against holdout (docs/campaigns.md).
    public static let campaignOutcomes = ReportSchema(
        name: "campaign_outcomes.csv.gz",
        columns: [
            ("campaign_id", .string), ("selected_on", .date), ("window_days", .integer), ("audience", .string),
            ("offer_identifier", .string), ("mature", .boolean), ("treatment_accounts", .integer), ("treatment_redeemed", .integer),
            ("treatment_converted", .integer), ("treatment_rate", .rate), ("holdout_accounts", .integer), ("holdout_redeemed", .integer),
            ("holdout_converted", .integer), ("holdout_rate", .rate), ("lift", .rate), ("lift_ci_low", .rate),
            ("lift_ci_high", .rate), ("cs_low", .rate), ("cs_high", .rate), ("p_always_valid", .rate), ("srm_p", .rate),
            ("treatment_net", .money), ("holdout_net", .money), ("currency", .currency),
        ])
    /// `eligible_accounts.csv.gz`: the accounts each campaign selected today.
    public static let eligibleAccounts = ReportSchema(
        name: "eligible_accounts.csv.gz",
        columns: [
            ("campaign_id", .string), ("account_key", .string), ("original_transaction_id", .string), ("variant", .string),
            ("audience", .string), ("product_id", .string), ("offer_identifier", .string), ("paid_days", .integer),
            ("days_since_lapse", .integer), ("days_to_expiry", .integer), ("lapse_reason", .string),
        ], isLarge: true)
    /// `retention_decisions.csv.gz` (docs/retention-messaging.md): what `winback serve` answers for each account a Retention
    /// Messaging campaign selected within its cooldown; key `original_transaction_id, campaign_id`.
    public static let retentionDecisions = ReportSchema(
        name: "retention_decisions.csv.gz",
        columns: [
            ("original_transaction_id", .string), ("campaign_id", .string), ("account_key", .string), ("variant", .string),
            ("kind", .string), ("message_identifier", .string), ("product_id", .string), ("offer_identifier", .string),
            ("billing_plan_type", .string),
        ])
    /// `rejects.ndjson.gz`: one line per rejected record.
    public static let rejects = ReportSchema(
        name: "rejects.ndjson.gz",
        columns: [
            ("source", .string), ("line", .integer), ("path", .string), ("code", .string), ("message", .string), ("record", .string),
        ])
    /// `offers.ndjson.gz`: one offer per treatment account (signed, an Apple win-back offer, or an offer code).
    public static let offers = ReportSchema(
        name: "offers.ndjson.gz",
        columns: [
            ("campaignId", .string), ("accountKey", .string), ("appAccountToken", .string), ("originalTransactionId", .string),
            ("transactionId", .string), ("productId", .string), ("offerIdentifier", .string), ("offerType", .string),
            ("eligibleWinBackOfferIds", .stringArray), ("offerCode", .string), ("redemptionURL", .string), ("keyId", .string),
            ("nonce", .string),
            ("timestamp", .integer), ("signatureV1", .string), ("jwsV2", .string), ("jwsIntroEligibility", .string),
            ("issuedAt", .instant), ("expiresAt", .instant),
        ], isLarge: true)
    /// `lifecycle_events.ndjson.gz`: the day's lifecycle events (``LifecycleEvent``), what `winback deliver` sends.
    public static let lifecycleEvents = ReportSchema(
        name: "lifecycle_events.ndjson.gz",
        columns: [
            ("id", .string), ("type", .string), ("occurredAt", .instant), ("originalTransactionId", .string), ("accountKey", .string),
            ("appAccountToken", .string), ("productId", .string), ("storefront", .string), ("reason", .string),
        ])
    /// `summary.json.gz`: the run's counts (one JSON object).
    public static let summary = ReportSchema(name: "summary.json.gz", columns: [])
}
