/// How a run turns Apple's prices into report money (docs/money.md): the row currency, conversion at the
/// event's day, and the proceeds estimate from tax and commission.
public struct MoneyContext: Sendable {
    /// The run's money settings.
    public let settings: MoneySettings
    /// The rates into ``MoneySettings/currency``; `nil` when no reporting currency is set (nothing converts).
    public let rates: ExchangeRates?

    /// A context converting through `rates` (required exactly when `settings.currency` is set).
    public init(settings: MoneySettings, rates: ExchangeRates?) {
        self.settings = settings
        self.rates = rates
    }

    /// A context without reporting currency, default commission and no tax (tests and benchmarks).
    public static let unconverted = MoneyContext(settings: MoneySettings(), rates: nil)

    /// The `currency` column of an amount in `currency`: the reporting currency when set, else its own.
    public func rowCurrency(_ currency: String?) -> String? { settings.currency ?? currency }

    /// `amount` (milliunits of `currency`) in the row currency at `instant`: converted at that day's rate,
    /// rounded once; unchanged without a reporting currency; `nil` when no rate applies (unconverted).
    public func convert(_ amount: Int64, currency: String, at instant: Int64) -> Int64? {
        guard let rates else { return amount }
        guard let rate = rates.rate(currency, at: instant) else { return nil }
        return MoneyMath.convert(amount, at: rate)
    }
}
