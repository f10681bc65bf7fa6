import WinbackAnalytics

/// `report` in the config.
public struct ReportSettings: Sendable, Equatable {
    /// IANA time zone for day and month boundaries (`UTC`, `America/Los_Angeles`).
    public var timeZone: String
    /// The app's billing grace period in days: 0, 3, 16 or 28.
    public var gracePeriodDays: Int
    /// Highest tolerated `rejected ÷ read`, 0…1; above it the run exits 65.
    public var maxRejectRate: Double
    /// Days the as-of date may be after the day of the data's newest `signedDate` before the run calls its
    /// data stale (a warning, `"stale": true`, a banner on the page); default 2.
    public var maxDataLagDays: Int
    /// The longest record held whole — an NDJSON line or one element of a `.json` document — in bytes
    /// (default 16 MiB); a longer one is one `malformed_json` rejection keeping its first bytes, and reading
    /// goes on after it.
    public var maxLineBytes: Int
    /// Reporting currency, exchange rates, commission and tax rates (docs/money.md).
    public var money: MoneySettings
    /// `report.formats` (docs/analysts.md): whether each table is written as gzip CSV, as Parquet, or both.
    public var formats: Set<TableFormat> = [.csv]

    /// A format of the published tables.
    public enum TableFormat: String, Sendable, CaseIterable {
        case csv, parquet
    }

    /// Settings from the config's `report` object.
    public init(
        timeZone: String, gracePeriodDays: Int, maxRejectRate: Double, maxDataLagDays: Int = 2, maxLineBytes: Int = 16 << 20,
        money: MoneySettings = MoneySettings()
    ) {
        self.timeZone = timeZone
        self.gracePeriodDays = gracePeriodDays
        self.maxRejectRate = maxRejectRate
        self.maxDataLagDays = maxDataLagDays
        self.maxLineBytes = maxLineBytes
        self.money = money
    }
}
