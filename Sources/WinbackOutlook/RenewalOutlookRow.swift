import WinbackAnalytics
import WinbackAppStore

extension ReportSchema {
    /// `renewal_outlook.csv.gz`: one row per subscription that can still renew (docs/renewal-outlook.md), key
    /// `original_transaction_id`.
    public static let renewalOutlook = ReportSchema(
        name: "renewal_outlook.csv.gz",
        columns: [
            ("original_transaction_id", .string), ("account_key", .string), ("product_id", .string), ("storefront", .string),
            ("next_renewal_at", .instant), ("period_kind", .string), ("renewal_index", .integer), ("auto_renew", .boolean),
            ("billing_state", .string), ("price_increase_pending", .boolean), ("renewal_probability", .rate),
            ("expected_proceeds_12m", .money), ("risk_band", .string), ("main_factor", .string),
        ], isLarge: true)
}

/// One row of `renewal_outlook.csv.gz`: a subscription's facts with the estimate of its renewals.
public struct RenewalOutlookRow: TableRow, Equatable {
    /// The subscription and its next renewals.
    public var facts: RenewalFacts
    /// The probability of its next renewal, millionths.
    public var renewalProbability: Int64
    /// The expected proceeds of the renewals due in `(D, D + 12 months]`, reporting currency milliunits; `nil`
    /// when a price or rate is unknown, or there is no reporting currency.
    public var expectedProceeds12m: Int64?
    /// `main_factor`, or `nil`.
    public var mainFactor: RenewalEstimator.MainFactor?

    /// The row of `facts` under `estimator`: the next renewal at its segment's probability, each later one at
    /// the probability of reaching it (the next renewal's, times a standard period's at the tenure reached);
    /// `prices` and `money` price the renewals due in the 12 months after `asOf`.
    public init(_ facts: RenewalFacts, estimates estimator: RenewalEstimates, prices: RenewalPrices, money: MoneyContext, asOf: Int64) {
        self.facts = facts
        let probability = estimator.probability(facts.features)
        renewalProbability = Int64((probability * 1_000_000).rounded())
        mainFactor = estimator.mainFactor(facts.features)
        var reach = probability
        var expected: Int64? = 0
        var later = facts.features
        later.autoRenew = true
        later.billing = .none
        later.priceIncreasePending = false
        if later.kind != .plan { later.kind = .standard }
        var exact = 0.0
        var step: (bucket: Int, probability: Double)?
        for (index, renewal) in facts.schedule(prices: prices, money: money, asOf: asOf).enumerated() {
            if index > 0 {
                later.renewalIndex = facts.features.renewalIndex + index
                // The probability changes only where the tenure bucket does.
                if step?.bucket != later.tenureBucket { step = (later.tenureBucket, estimator.probability(later)) }
                reach *= step?.probability ?? 0
            }
            guard let proceeds = renewal.proceeds else {
                expected = nil
                break
            }
            exact += reach * Double(proceeds)
        }
        expectedProceeds12m = expected.map { _ in Int64(exact.rounded()) }
    }

    /// `risk_band`: `high` below 0.5, `medium` below 0.8, else `low`.
    public var riskBand: String {
        renewalProbability < 500_000 ? "high" : renewalProbability < 800_000 ? "medium" : "low"
    }

    /// The row's probability as a number in `[0, 1]`.
    public var probability: Double { Double(renewalProbability) / 1_000_000 }

    /// Hands the values to `fields` in ``ReportSchema/renewalOutlook``'s column order.
    public func write(to fields: inout some RowFields) {
        fields.text(facts.originalTransactionId)
        fields.text(facts.accountKey)
        fields.text(facts.productId)
        fields.text(facts.storefront)
        fields.instant(facts.nextRenewalAt)
        fields.text(facts.features.kind.rawValue)
        fields.integer(Int64(facts.features.renewalIndex))
        fields.boolean(facts.features.autoRenew)
        fields.text(facts.features.billing.rawValue)
        fields.boolean(facts.features.priceIncreasePending)
        fields.rate(renewalProbability)
        fields.money(expectedProceeds12m)
        fields.text(riskBand)
        fields.text(mainFactor?.rawValue)
    }
}
