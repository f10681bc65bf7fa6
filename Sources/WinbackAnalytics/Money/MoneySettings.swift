import WinbackAppStore

/// The money settings of `report` (docs/money.md): the reporting currency and its rates, Apple's commission and
/// the tax included in prices per storefront.
public struct MoneySettings: Sendable, Equatable {
    /// `report.currency`: the ISO 4217 code every money table converts into; `nil` keeps each
    /// transaction's currency (then `currency` is part of each money table's key).
    public var currency: String?
    /// `report.exchangeRates`: the rates file as the config names it (relative to the config's folder).
    public var exchangeRatesFile: String?
    /// `report.commission`.
    public var commission: Commission
    /// `report.taxRates`: Apple's three-letter storefront → the tax share included in its prices (0.19).
    /// Unlisted storefronts have none.
    public var taxRates: [String: ExactDecimal]

    /// Settings from their parts; the defaults are a run without money settings.
    public init(
        currency: String? = nil, exchangeRatesFile: String? = nil, commission: Commission = .standard,
        taxRates: [String: ExactDecimal] = [:]
    ) {
        self.currency = currency
        self.exchangeRatesFile = exchangeRatesFile
        self.commission = commission
        self.taxRates = taxRates
    }

    /// The tax share included in prices in `storefront` (0 when unlisted).
    public func taxRate(storefront: String?) -> ExactDecimal { storefront.flatMap { taxRates[$0] } ?? .zero }

    /// The most decimals a tax or commission rate may have (so the proceeds arithmetic cannot overflow).
    static let maximumShareScale = 9

    /// Reads `currency`, `exchangeRates`, `commission` and `taxRates` of the config's `report` object.
    package static func parse(_ report: ConfigObject) throws(ConfigError) -> MoneySettings {
        var settings = MoneySettings()
        if let currency = try report.optionalString("currency") {
            guard isCurrencyCode(currency) else {
                throw ConfigError(
                    key: "report.currency", message: "expected an ISO 4217 code of three upper-case letters, found '\(currency)'")
            }
            settings.currency = currency
        }
        settings.exchangeRatesFile = try report.optionalString("exchangeRates")
        if settings.currency != nil, settings.exchangeRatesFile == nil {
            throw ConfigError(
                key: "report.exchangeRates", message: "required when report.currency is set (a CSV file 'date,currency,rate')")
        }
        if settings.currency == nil, settings.exchangeRatesFile != nil {
            throw ConfigError(key: "report.exchangeRates", message: "has no effect without report.currency: set the reporting currency")
        }
        if let value = report.optional("commission") {
            let object = try ConfigObject(value, key: "report.commission")
            try object.allowOnly(["rate", "reducedRate", "reducedAfterServiceDays"])
            let standard = Commission.standard
            let reducedAfter = try object.optionalInteger("reducedAfterServiceDays") ?? standard.reducedAfterServiceDays
            guard (0...36_500).contains(reducedAfter) else {
                throw ConfigError(
                    key: "report.commission.reducedAfterServiceDays", message: "expected an integer from 0 to 36500, found \(reducedAfter)")
            }
            settings.commission = Commission(
                rate: try object.optionalShare("rate") ?? standard.rate,
                reducedRate: try object.optionalShare("reducedRate") ?? standard.reducedRate, reducedAfterServiceDays: reducedAfter)
        }
        if let value = report.optional("taxRates") {
            let object = try ConfigObject(value, key: "report.taxRates")
            for member in object.members {
                guard isCurrencyCode(member.key) else {
                    throw ConfigError(
                        key: "report.taxRates.\(member.key)",
                        message: "expected Apple's three-letter storefront code (e.g. 'DEU') as the key")
                }
                settings.taxRates[member.key] = try object.optionalShare(member.key) ?? .zero
            }
        }
        return settings
    }

    /// Three upper-case ASCII letters (an ISO 4217 currency or an Apple storefront code).
    static func isCurrencyCode(_ text: String) -> Bool {
        text.utf8.count == 3 && text.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }
}

extension ConfigObject {
    /// A share from 0 (inclusive) to 1 (exclusive) with at most ``MoneySettings/maximumShareScale`` decimals.
    func optionalShare(_ name: String) throws(ConfigError) -> ExactDecimal? {
        guard optional(name) != nil else { return nil }
        let number = try number(name)
        guard let share = ExactDecimal(number), share.isBelowOne, share.scale <= MoneySettings.maximumShareScale else {
            throw ConfigError(
                key: key.isEmpty ? name : "\(key).\(name)",
                message: "expected a number from 0 up to (not including) 1 with at most 9 decimals, found \(number)")
        }
        return share
    }
}
