import Testing
import WinbackAnalytics
import WinbackAppStore

@Suite struct ReportCalendarTests {
    @Test func losAngelesDaysFollowDaylightSavingTime() throws {
        // 2026-03-08 is the spring-forward day in Los Angeles: 23 hours long.
        let calendar = try #require(ReportCalendar(timeZone: "America/Los_Angeles", asOfYear: 2026, month: 3, day: 8))
        #expect(InstantFormat.iso8601(milliseconds: calendar.asOf) == "2026-03-09T07:00:00.000Z")
        let days = calendar.days(count: 2)
        #expect(days.map(\.label) == ["2026-03-07", "2026-03-08"])
        #expect(days.map { ($0.end - $0.start) / 3_600_000 } == [24, 23])
        let months = calendar.months(from: InstantFormat.days(year: 2026, month: 2, day: 15) * InstantFormat.day)
        #expect(months.map(\.label) == ["2026-02", "2026-03"])
        #expect(InstantFormat.iso8601(milliseconds: months[0].start) == "2026-02-01T08:00:00.000Z")
        #expect(InstantFormat.iso8601(milliseconds: months[1].start) == "2026-03-01T08:00:00.000Z")
        #expect(months[1].end == calendar.asOf)
    }

    @Test func fallBackDayIs25Hours() throws {
        let calendar = try #require(ReportCalendar(timeZone: "America/Los_Angeles", asOfYear: 2026, month: 11, day: 1))
        #expect(calendar.days(count: 1).map { ($0.end - $0.start) / 3_600_000 } == [25])
    }

    @Test(arguments: [("2026-11-19", true), ("2026-02-29", false), ("2026-13-01", false), ("26-01-01", false), ("2026-1-01", false)])
    func asOfDatesAreStrict(_ text: String, _ isValid: Bool) {
        #expect((ReportCalendar.parseDate(text) != nil) == isValid)
    }

    @Test func lastFullMonthEndsAtOrBeforeT() throws {
        #expect(try #require(ReportCalendar(timeZone: "UTC", asOfYear: 2026, month: 3, day: 31)).lastFullMonth == (2026, 3))
        #expect(try #require(ReportCalendar(timeZone: "UTC", asOfYear: 2026, month: 3, day: 30)).lastFullMonth == (2026, 2))
        #expect(try #require(ReportCalendar(timeZone: "UTC", asOfYear: 2026, month: 1, day: 5)).lastFullMonth == (2025, 12))
    }

    @Test(arguments: [
        (1, 3, "0.333333"), (2, 3, "0.666667"), (1, 8, "0.125000"), (1, 2_000_000, "0.000001"), (1, 2_000_001, "0.000000"),
        (5, 5, "1.000000"),
    ])
    func ratesRoundHalfAwayFromZero(_ numerator: Int, _ denominator: Int, _ expected: String) {
        #expect(RateFormat.format(numerator, denominator) == expected)
    }

    @Test func zeroDenominatorIsEmpty() {
        #expect(RateFormat.format(3, 0) == nil)
    }

    @Test(arguments: [
        (["a", "b,c", "say \"hi\"", nil, "line\nbreak"] as [String?], "a,\"b,c\",\"say \"\"hi\"\"\",,\"line\nbreak\"\n"),
        (["", "é,ü", "cr\r", "\"", "plain é"], ",\"é,ü\",\"cr\r\",\"\"\"\",plain é\n"),
        ([nil, nil], ",\n"),
        ([], "\n"),
    ])
    func csvQuotesOnlyWhenNeeded(_ fields: [String?], _ expected: String) {
        #expect(CSVFormat.line(fields) == expected)
        // The byte form the report writers use appends the same line after what is there.
        var bytes = Array("x\n".utf8)
        CSVFormat.append(fields, to: &bytes)
        #expect(bytes == Array(("x\n" + expected).utf8))
    }

    @Test(arguments: [
        ("9", "10", true), ("10", "9", false), ("010", "9", false), ("a", "b", true), ("10", "a", true),
        ("2000000800000001", "2000000800000002", true),
    ])
    func identifierOrder(_ lhs: String, _ rhs: String, _ isLess: Bool) {
        #expect(IdentifierOrder.less(lhs, rhs) == isLess)
    }
}
