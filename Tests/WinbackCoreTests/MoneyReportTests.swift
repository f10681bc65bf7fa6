import Testing
import WinbackAnalytics
import WinbackAppStore

/// The money tables (docs/money.md) of six subscriptions worked out by hand (UTC, as-of 2026-03-31, so `T` =
/// 2026-04-01T00:00Z; commission 30 %, 15 % from 365 service days; DEU prices include 19 % tax).
///
/// - `a`: monthly 9.99 USD from Jan 10, renewed Feb 10 and Mar 10.
/// - `b`: 8.99 EUR on Feb 1, half refunded on Feb 15 (EUR is 1.10 USD from Jan 1, 1.20 from Feb 10).
/// - `c`: 12.99 CAD on Jan 5 (no CAD rate: unconverted).
/// - `d`: a transaction without a price on Mar 5 (unpriced).
/// - `e`: family-shared (not a sale).
/// - `f`: annual 50.00 USD from 2025-01-01, renewed 2026-01-01 after 365 service days (reduced commission).
@Suite struct MoneyReportTests {
    static let calendar = ReportCalendar(timeZone: "UTC", asOfYear: 2026, month: 3, day: 31)

    static func day(_ text: String) -> Int64 { HandCheckedReportTests.day(text) }

    static func tx(
        _ subscription: String, _ id: String, _ product: String, _ purchase: String, _ expires: String, price: Int64?, currency: String,
        storefront: String = "USA", revoked: String? = nil, percentage: Int32? = nil, family: Bool = false
    ) -> SubscriptionTransaction {
        SubscriptionTransaction(
            transactionId: id, originalTransactionId: subscription, productId: product, purchaseDate: day(purchase),
            expiresDate: day(expires), revocationDate: revoked.map(day), storefront: storefront,
            inAppOwnershipType: family ? "FAMILY_SHARED" : "PURCHASED", price: price, currency: currency, revocationPercentage: percentage)
    }

    static let transactions = [
        tx("a", "a1", "m", "2026-01-10", "2026-02-10", price: 9990, currency: "USD"),
        tx("a", "a2", "m", "2026-02-10", "2026-03-10", price: 9990, currency: "USD"),
        tx("a", "a3", "m", "2026-03-10", "2026-04-10", price: 9990, currency: "USD"),
        tx(
            "b", "b1", "m", "2026-02-01", "2026-03-01", price: 8990, currency: "EUR", storefront: "DEU", revoked: "2026-02-15",
            percentage: 50_000),
        tx("c", "c1", "m", "2026-01-05", "2026-02-05", price: 12990, currency: "CAD", storefront: "CAN"),
        tx("d", "d1", "m", "2026-03-05", "2026-04-05", price: nil, currency: "USD"),
        tx("e", "e1", "m", "2026-01-10", "2026-02-10", price: 9990, currency: "USD", family: true),
        tx("f", "f1", "y", "2025-01-01", "2026-01-01", price: 50000, currency: "USD"),
        tx("f", "f2", "y", "2026-01-01", "2027-01-01", price: 50000, currency: "USD"),
    ]

    static func reports(inUSD: Bool) throws -> MoneyReports {
        let calendar = try #require(Self.calendar)
        let model = SubscriptionModel(transactions: transactions, renewals: [:], asOf: calendar.asOf, gracePeriodDays: 0)
        var settings = MoneySettings(taxRates: ["DEU": ExactDecimal(units: 19, scale: 2)])
        var rates: ExchangeRates? = nil
        if inUSD {
            settings.currency = "USD"
            rates = ExchangeRates(
                reportingCurrency: "USD",
                rows: [
                    (day("2026-01-01"), "EUR", ExactDecimal(units: 110, scale: 2)),
                    (day("2026-02-10"), "EUR", ExactDecimal(units: 120, scale: 2)),
                ])
        }
        let months = calendar.months(from: day("2025-01-01"))
        return MoneyReports(
            timelines: model.timelines, calendar: calendar, context: MoneyContext(settings: settings, rates: rates), months: months)
    }

    static func csv(_ rows: [[String?]]) -> [String] { HandCheckedReportTests.csv(rows) }
    static func csv(_ rows: [some TableRow]) -> [String] { HandCheckedReportTests.csv(rows) }

    @Test func revenueInAReportingCurrency() throws {
        let rows = Self.csv(try Self.reports(inUSD: true).revenueMonthly.rows())
        #expect(
            rows == [
                "2025-01,y,USD,1,50000,0,0,50000,35000,0,0",
                // c's CAD charge has no rate: counted in charges and unconverted, not in gross.
                "2026-01,m,USD,2,9990,0,0,9990,6993,0,1",
                // f's renewal after 365 service days: 50000 × 0.85.
                "2026-01,y,USD,1,50000,0,0,50000,42500,0,0",
                // b: 8990 EUR × 1.10 = 9889, proceeds 9889 / 1.19 × 0.7 = 5817; its refund 4495 EUR × 1.20 = 5394,
                // proceeds 3173; a: 9990, 6993.
                "2026-02,m,USD,2,19879,1,5394,14485,9637,0,0",
                "2026-03,m,USD,1,9990,0,0,9990,6993,1,0",
            ])
    }

    @Test func revenueInEachTransactionsCurrency() throws {
        let rows = Self.csv(try Self.reports(inUSD: false).revenueMonthly.rows())
        #expect(
            rows == [
                "2025-01,y,USD,1,50000,0,0,50000,35000,0,0",
                "2026-01,m,CAD,1,12990,0,0,12990,9093,0,0",
                "2026-01,m,USD,1,9990,0,0,9990,6993,0,0",
                "2026-01,y,USD,1,50000,0,0,50000,42500,0,0",
                // 8990 / 1.19 × 0.7 = 5288 less 4495 / 1.19 × 0.7 = 2644.
                "2026-02,m,EUR,1,8990,1,4495,4495,2644,0,0",
                "2026-02,m,USD,1,9990,0,0,9990,6993,0,0",
                "2026-03,m,USD,1,9990,0,0,9990,6993,1,0",
            ])
    }

    @Test func revenueDailyHasTheEventsOfTheLast90Days() throws {
        let rows = Self.csv(try Self.reports(inUSD: true).revenueDaily.rows())
        #expect(
            rows == [
                "2026-01-01,y,USD,1,50000,0,0,50000,42500,0,0", "2026-01-05,m,USD,1,0,0,0,0,0,0,1",
                "2026-01-10,m,USD,1,9990,0,0,9990,6993,0,0",
                "2026-02-01,m,USD,1,9889,0,0,9889,5817,0,0", "2026-02-10,m,USD,1,9990,0,0,9990,6993,0,0",
                "2026-02-15,m,USD,0,0,1,5394,-5394,-3173,0,0", "2026-03-05,m,USD,0,0,0,0,0,0,1,0",
                "2026-03-10,m,USD,1,9990,0,0,9990,6993,0,0",
            ])
    }

    @Test func mrrAtEachMonthEnd() throws {
        let rows = Self.csv(try Self.reports(inUSD: true).mrr.rows())
        // The annual's monthly price: 50000 × 30.436875 / 365 = 4169.4 → 4169; a's: 9990 × 30.436875 / 31 = 9808.5 → 9809,
        // or / 28 = 10859; ARPPU 9809 / 2 = 4904.5 → 4905.
        let annual = (1...12).map { String(format: "2025-%02d,y,,USD,1,4169,4169,0", $0) }
        #expect(
            rows == annual + [
                // c is active (CAD, no rate): counted, not summed.
                "2026-01,m,,USD,2,9809,4905,0", "2026-01,y,,USD,1,4169,4169,0",
                // b was refunded on Feb 15: not active at the end of February.
                "2026-02,m,,USD,1,10859,10859,0", "2026-02,y,,USD,1,4169,4169,0",
                // d has no price: active, unpriced.
                "2026-03,m,,USD,2,9809,4905,1", "2026-03,y,,USD,1,4169,4169,0",
            ])
    }

    @Test func ltvCohorts() throws {
        let rows = Self.csv(try Self.reports(inUSD: true).ltv.rows())
        #expect(rows.count == 4 * 25)
        func cohort(_ prefix: String) -> [String] { rows.filter { $0.hasPrefix(prefix) } }
        let annual = (0...24).map { k in
            k <= 11 ? "2025-01,y,USD,\(k),1,1,50000,50000" : k <= 14 ? "2025-01,y,USD,\(k),1,1,100000,100000" : "2025-01,y,USD,\(k),1,0,0,"
        }
        #expect(cohort("2025-01,") == annual)
        // a and c (unconverted) from January: two eligible members for two windows.
        #expect(
            cohort("2026-01,").prefix(3) == ["2026-01,m,USD,0,2,2,9990,4995", "2026-01,m,USD,1,2,2,19980,9990", "2026-01,m,USD,2,2,0,0,"])
        // b: charge less refund; its second window ends exactly at T.
        #expect(
            cohort("2026-02,").prefix(3) == ["2026-02,m,USD,0,1,1,4495,4495", "2026-02,m,USD,1,1,1,4495,4495", "2026-02,m,USD,2,1,0,0,"])
        #expect(cohort("2026-03,").first == "2026-03,m,USD,0,1,0,0,")
    }

    @Test func summaryBlockOnlyWithAReportingCurrency() throws {
        let inUSD = try Self.reports(inUSD: true).summary(lastFullMonth: "2026-02")
        #expect(
            JSONText.render(inUSD)
                == #"{"currency":"USD","lastFullMonth":{"gross":19879,"refunds":5394,"net":14485,"proceeds":9637,"mrrEnd":15028}}"#)
        #expect(try Self.reports(inUSD: false).summary(lastFullMonth: "2026-02") == .null)
    }

    /// Service days (Apple's reduced-commission rule): gaps of up to 60 days join runs, a longer gap restarts.
    @Test(arguments: [
        ("45-day gap joins", ["2025-01-01", "2025-07-01", "2025-08-15", "2025-09-15"], "2025-09-15", Int64(181 + 31)),
        ("61-day gap restarts", ["2025-01-01", "2025-07-01", "2025-08-31", "2025-09-30"], "2025-09-30", 30),
        ("lapsed more than 60 days ago", ["2025-01-01", "2025-07-01", "2025-07-01", "2025-07-01"], "2025-09-01", 0),
        ("cut at the instant", ["2025-01-01", "2026-01-01", "2026-01-01", "2026-01-01"], "2025-03-01", 59),
    ])
    func serviceDays(_ name: String, _ periods: [String], _ at: String, _ expected: Int64) throws {
        let calendar = try #require(Self.calendar)
        let transactions = [
            Self.tx("s", "s1", "m", periods[0], periods[1], price: 1, currency: "USD"),
            Self.tx("s", "s2", "m", periods[2], periods[3], price: 1, currency: "USD"),
        ].filter { $0.purchaseDate < $0.expiresDate }
        let timeline = SubscriptionTimeline(transactions: transactions, renewal: nil, asOf: calendar.asOf, graceMilliseconds: 0)
        #expect(timeline.serviceDays(at: Self.day(at)) == expected, "\(name)")
    }
}

/// Exact decimals, rounding and the rates file.
@Suite struct MoneyMathTests {
    @Test(arguments: [
        ("1.08", Int64(108), 2), ("0.006600", 66, 4), ("1", 1, 0), ("0", 0, 0), ("1e-05", 1, 5), ("1.5e2", 150, 0), ("007.50", 75, 1),
    ])
    func decimalsParseExactly(_ text: String, _ units: Int64, _ scale: Int) {
        #expect(ExactDecimal(Substring(text)) == ExactDecimal(units: units, scale: scale))
    }

    @Test(arguments: ["", ".5", "1.", "-1", "1,5", "abc", "1.0000000000001", "12345678901234567890"])
    func malformedDecimalsAreRefused(_ text: String) {
        #expect(ExactDecimal(Substring(text)) == nil)
    }

    @Test func configNumbersKeepTheirDecimalText() {
        #expect(ExactDecimal(0.19) == ExactDecimal(units: 19, scale: 2))
        #expect(ExactDecimal(0.3) == ExactDecimal(units: 3, scale: 1))
        #expect(ExactDecimal(0.0000642)?.description == "0.0000642")
    }

    @Test(arguments: [
        (Int128(5), Int128(2), Int64(3)), (-5, 2, -3), (4, 3, 1), (-4, 3, -1), (7, 2, 4), (1, 3, 0), (-1, 2, -1),
    ])
    func roundingIsHalfAwayFromZero(_ numerator: Int128, _ denominator: Int128, _ expected: Int64) {
        #expect(MoneyMath.rounded(numerator, over: denominator) == expected)
    }

    @Test func conversionsProceedsAndMonthlyPrices() {
        #expect(MoneyMath.convert(8990, at: ExactDecimal(units: 110, scale: 2)) == 9889)
        #expect(MoneyMath.convert(9990, at: ExactDecimal(units: 6600, scale: 6)) == 66)
        #expect(MoneyMath.proportion(8990, 50_000, of: 100_000) == 4495)
        #expect(MoneyMath.proceeds(9990, tax: ExactDecimal(units: 19, scale: 2), commission: ExactDecimal(units: 3, scale: 1)) == 5876)
        #expect(MoneyMath.proceeds(Int64.max / 2, tax: ExactDecimal(units: 999_999_999, scale: 9), commission: .zero) > 0)
        #expect(MoneyMath.monthlyPrice(59990, duration: 365 * InstantFormat.day) == 5002)
        #expect(MoneyMath.monthlyPrice(1, duration: 0) == nil)
    }

    @Test func ratesApplyFromTheirDayUntilTheNext() throws {
        let calendar = try #require(ReportCalendar(timeZone: "Europe/Berlin", asOfYear: 2026, month: 3, day: 31))
        let rates = try ExchangeRates.parse(
            "date,currency,rate\r\n2026-01-01,EUR,1.08\n2026-03-01,EUR,1.10\n\n", file: "r.csv", reportingCurrency: "USD",
            calendar: calendar)
        let berlinMidnight = calendar.startOfDay(year: 2026, month: 3, day: 1)
        #expect(rates.rate("EUR", at: berlinMidnight - 1) == ExactDecimal(units: 108, scale: 2))
        #expect(rates.rate("EUR", at: berlinMidnight) == ExactDecimal(units: 110, scale: 2))
        #expect(rates.rate("EUR", at: calendar.startOfDay(year: 2026, month: 1, day: 1) - 1) == nil)
        #expect(rates.rate("USD", at: 0) == .one)
        #expect(rates.rate("GBP", at: berlinMidnight) == nil)
    }

    @Test(arguments: [
        ("date,rate,currency\n", "r.csv:1: expected the header 'date,currency,rate'"),
        ("date,currency,rate\n2026-01-01,EUR\n", "r.csv:2: expected 3 fields (date,currency,rate), found 2"),
        ("date,currency,rate\n2026-02-30,EUR,1\n", "r.csv:2: expected a date YYYY-MM-DD, found '2026-02-30'"),
        ("date,currency,rate\n2026-01-01,eur,1\n", "r.csv:2: expected an ISO 4217 code of three upper-case letters, found 'eur'"),
        ("date,currency,rate\n2026-01-01,EUR,0\n", "r.csv:2: expected a positive decimal rate (at most 12 decimals), found '0'"),
        ("date,currency,rate\n2026-01-01,EUR,1e3\n", "r.csv:2: expected a positive decimal rate (at most 12 decimals), found '1e3'"),
        ("date,currency,rate\n2026-01-01,EUR,1\n2026-01-01,EUR,2\n", "r.csv:3: a second rate for EUR on 2026-01-01"),
    ])
    func malformedRatesNameFileAndLine(_ text: String, _ message: String) throws {
        let calendar = try #require(ReportCalendar(timeZone: "UTC", asOfYear: 2026, month: 3, day: 31))
        #expect(throws: ConfigError(key: "report.exchangeRates", message: message)) {
            try ExchangeRates.parse(text, file: "r.csv", reportingCurrency: "USD", calendar: calendar)
        }
    }

    @Test func monthsAreAddedInTheReportTimeZoneWithTheDayClamped() throws {
        let utc = try #require(ReportCalendar(timeZone: "UTC", asOfYear: 2026, month: 3, day: 31))
        let jan31 = HandCheckedReportTests.day("2026-01-31") + 3_600_000
        #expect(utc.addingMonths(1, to: jan31) == HandCheckedReportTests.day("2026-02-28") + 3_600_000)
        #expect(utc.addingMonths(13, to: jan31) == HandCheckedReportTests.day("2027-02-28") + 3_600_000)
        // 08:00 in Los Angeles stays 08:00 across the spring-forward change (16:00Z in January, 15:00Z in March).
        let losAngeles = try #require(ReportCalendar(timeZone: "America/Los_Angeles", asOfYear: 2026, month: 3, day: 31))
        let january = HandCheckedReportTests.day("2026-01-15") + 16 * 3_600_000
        #expect(losAngeles.addingMonths(2, to: january) == HandCheckedReportTests.day("2026-03-15") + 15 * 3_600_000)
    }
}
