import Testing
import WinbackAnalytics

@Suite struct DataFreshnessTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var timeZone: String
        var asOf: (Int, Int, Int)
        /// The newest accepted signedDate, ISO 8601 UTC, or nil for none.
        var newest: Int64?
        var dataThrough: String?
        var lagDays: Int?
        var isStale: Bool
        var testDescription: String { name }
    }

    // 2026-11-20T12:00:00Z and 2026-11-20T03:00:00Z in epoch ms.
    static let noonNov20: Int64 = 1_795_176_000_000
    static let threeAmNov20: Int64 = 1_795_143_600_000

    static let cases: [Case] = [
        Case(
            name: "as-of is the data's day", timeZone: "UTC", asOf: (2026, 11, 20), newest: noonNov20, dataThrough: "2026-11-20",
            lagDays: 0, isStale: false),
        Case(
            name: "two days behind is within the default", timeZone: "UTC", asOf: (2026, 11, 22), newest: noonNov20,
            dataThrough: "2026-11-20", lagDays: 2, isStale: false),
        Case(
            name: "three days behind is stale", timeZone: "UTC", asOf: (2026, 11, 23), newest: noonNov20, dataThrough: "2026-11-20",
            lagDays: 3, isStale: true),
        Case(
            name: "data newer than as-of", timeZone: "UTC", asOf: (2026, 11, 19), newest: noonNov20, dataThrough: "2026-11-20", lagDays: -1,
            isStale: false),
        // 03:00Z on the 20th is still the 19th in Los Angeles: the day is the report time zone's.
        Case(
            name: "local day of the report time zone", timeZone: "America/Los_Angeles", asOf: (2026, 11, 22), newest: threeAmNov20,
            dataThrough: "2026-11-19", lagDays: 3, isStale: true),
        Case(name: "no accepted record", timeZone: "UTC", asOf: (2026, 11, 20), newest: nil, dataThrough: nil, lagDays: nil, isStale: true),
    ]

    @Test(arguments: cases)
    func dataThroughAndLag(_ example: Case) throws {
        let calendar = try #require(
            ReportCalendar(timeZone: example.timeZone, asOfYear: example.asOf.0, month: example.asOf.1, day: example.asOf.2))
        let freshness = DataFreshness(newestSignedDate: example.newest, calendar: calendar, maxLagDays: 2)
        #expect(freshness.dataThrough == example.dataThrough)
        #expect(freshness.lagDays == example.lagDays)
        #expect(freshness.isStale == example.isStale)
    }

    @Test func newestSignedDateIsTheMaximumOfAcceptedRecords() {
        var counts = IngestCounts()
        for signedDate: Int64 in [5, 9, 7] {
            let transaction = SubscriptionTransaction(
                transactionId: "t\(signedDate)", originalTransactionId: "o", productId: "p", purchaseDate: 1, expiresDate: 2,
                signedDate: signedDate)
            counts.countAccepted(
                AcceptedRecord(
                    location: RecordLocation(source: "a.ndjson", line: 1, path: nil), kept: .transaction(transaction), warnings: []))
        }
        counts.countAccepted(AcceptedRecord(location: RecordLocation(source: "a.ndjson", line: 4, path: nil), kept: .ignored, warnings: []))
        #expect(counts.newestSignedDate == 9)
    }
}
