import WinbackAnalytics
import WinbackAppStore

/// `renewalOutlook` of `summary.json.gz` and the page's section (docs/renewal-outlook.md): the rows' totals by
/// risk band and main factor, and the backtest.
public struct RenewalOutlookSummary: Sendable, Equatable {
    /// One risk band's (or main factor's) subscriptions and expected proceeds.
    public struct Group: Sendable, Equatable {
        /// Subscriptions in the group.
        public var subscriptions = 0
        /// Expected proceeds of the 12 months, reporting currency milliunits (rows without them add nothing).
        public var expectedProceeds12m: Int64 = 0

        /// An empty group.
        public init() {}
    }

    /// Rows.
    public var subscriptions = 0
    /// The sum of the rows' renewal probabilities.
    public var expectedRenewals = 0.0
    /// The sum of the rows' expected proceeds; `nil` when a row has none (no reporting currency, an unknown price).
    public var expectedProceeds12m: Int64? = 0
    /// By `risk_band` (`high`, `medium`, `low`).
    public var bands: [String: Group] = [:]
    /// By `main_factor` (rows without one are not counted).
    public var factors: [String: Group] = [:]
    /// The backtest.
    public var backtest: RenewalBacktest?

    /// An empty summary.
    public init() {}

    /// Counts `row`.
    public mutating func add(_ row: RenewalOutlookRow) {
        subscriptions += 1
        expectedRenewals += row.probability
        if let proceeds = row.expectedProceeds12m {
            expectedProceeds12m = expectedProceeds12m.map { $0 + proceeds }
        } else {
            expectedProceeds12m = nil
        }
        bands[row.riskBand, default: Group()].subscriptions += 1
        bands[row.riskBand, default: Group()].expectedProceeds12m += row.expectedProceeds12m ?? 0
        if let factor = row.mainFactor {
            factors[factor.rawValue, default: Group()].subscriptions += 1
            factors[factor.rawValue, default: Group()].expectedProceeds12m += row.expectedProceeds12m ?? 0
        }
    }

    /// `renewalOutlook`.
    public var json: JSONValue {
        JSONText.object([
            ("subscriptions", .integer(Int64(subscriptions))),
            ("expectedRenewals", .double((expectedRenewals * 1000).rounded() / 1000)),
            ("expectedProceeds12m", expectedProceeds12m.map(JSONValue.integer) ?? .null),
            ("backtest", backtest?.json ?? .null),
        ])
    }
}
