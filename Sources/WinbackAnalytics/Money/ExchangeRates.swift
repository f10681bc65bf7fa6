import WinbackAppStore

/// The rates of `report.exchangeRates` (docs/money.md): per currency, rates in force from a day (report time
/// zone) until the next row of that currency. `rate` is how many reporting-currency units one unit buys.
///
/// Example: rows `2026-01-01,EUR,1.08` and `2026-03-01,EUR,1.10` convert a EUR charge of 2026-02-28 at
/// 1.08 and one of 2026-03-01 at 1.10; a EUR charge of 2025-12-31 has no rate (it is `unconverted`).
public struct ExchangeRates: Sendable {
    /// The reporting currency (converts at 1).
    public let reportingCurrency: String
    /// Per currency, (instant the row's day starts, rate), ordered by instant.
    private let table: [String: [(from: Int64, rate: ExactDecimal)]]

    /// Rates must be below this: one unit of a currency buys fewer than ten million reporting units.
    public static let maximumRate: Int64 = 10_000_000

    /// The expected header line.
    public static let header = "date,currency,rate"

    /// Rates from rows of (day start instant, currency, rate).
    public init(reportingCurrency: String, rows: [(from: Int64, currency: String, rate: ExactDecimal)]) {
        self.reportingCurrency = reportingCurrency
        var table: [String: [(from: Int64, rate: ExactDecimal)]] = [:]
        for row in rows { table[row.currency, default: []].append((row.from, row.rate)) }
        self.table = table.mapValues { $0.sorted { $0.from < $1.from } }
    }

    /// Parses the rates file's `text` (`file` names it in errors): the header `date,currency,rate`, then
    /// one row per line; days start in `calendar`'s time zone. A malformed row, or a repeated (date,
    /// currency), is an error naming `file:line`.
    public static func parse(_ text: String, file: String, reportingCurrency: String, calendar: ReportCalendar) throws(ConfigError)
        -> ExchangeRates
    {
        func failure(_ line: Int, _ message: String) -> ConfigError {
            ConfigError(key: "report.exchangeRates", message: "\(file):\(line): \(message)")
        }
        // "\r\n" is one Character in Swift: split on either line ending.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        guard let first = lines.first, first == Substring(header) else {
            throw failure(1, "expected the header '\(header)'")
        }
        var rows: [(from: Int64, currency: String, rate: ExactDecimal)] = []
        var seen: Set<String> = []
        for (offset, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let number = offset + 1
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 3 else { throw failure(number, "expected 3 fields (date,currency,rate), found \(fields.count)") }
            guard let (year, month, day) = ReportCalendar.parseDate(String(fields[0])) else {
                throw failure(number, "expected a date YYYY-MM-DD, found '\(fields[0])'")
            }
            let currency = String(fields[1])
            guard MoneySettings.isCurrencyCode(currency) else {
                throw failure(number, "expected an ISO 4217 code of three upper-case letters, found '\(currency)'")
            }
            guard !fields[2].contains(where: { $0 == "e" || $0 == "E" }), let rate = ExactDecimal(fields[2]), !rate.isZero else {
                throw failure(number, "expected a positive decimal rate (at most 12 decimals), found '\(fields[2])'")
            }
            // Bounded so that no sum of converted money can overflow Int64 milliunits (issue 44: a rate of
            // 10^11 passed and crashed the report page); real rates are far below (1 USD ≈ 90 000 LBP).
            guard rate.units / rate.denominator < maximumRate else {
                throw failure(number, "expected a rate below \(maximumRate), found '\(fields[2])'")
            }
            guard seen.insert("\(fields[0]),\(currency)").inserted else {
                throw failure(number, "a second rate for \(currency) on \(fields[0])")
            }
            rows.append((calendar.startOfDay(year: year, month: month, day: day), currency, rate))
        }
        return ExchangeRates(reportingCurrency: reportingCurrency, rows: rows)
    }

    /// The rate of `currency` at `instant`: the reporting currency's is 1; otherwise the row with the
    /// latest day starting at or before `instant`; `nil` when there is none.
    public func rate(_ currency: String, at instant: Int64) -> ExactDecimal? {
        if currency == reportingCurrency { return .one }
        guard let rows = table[currency] else { return nil }
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if rows[middle].from <= instant { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : rows[low - 1].rate
    }
}
