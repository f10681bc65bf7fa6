import Testing
import WinbackCore

@Suite struct InstantFormatTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"), (1_795_352_104_214, "2026-11-22T12:55:04.214Z"), (-1, "1969-12-31T23:59:59.999Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
    ])
    func formatsUTCInstants(_ milliseconds: Int64, _ expected: String) {
        #expect(InstantFormat.iso8601(milliseconds: milliseconds) == expected)
    }

    @Test func daysRoundTrip() {
        for days in stride(from: Int64(-1000), through: 30_000, by: 37) {
            let (year, month, day) = InstantFormat.civil(fromDays: days)
            #expect(InstantFormat.days(year: year, month: month, day: day) == days)
        }
    }
}
