import Testing
import WinbackAnalytics
import WinbackAppStore

/// Instants at the ends of Int64 and at 0 go through the model and every report without trapping: ingest
/// rejects them (`invalid_field`), and a model built in code clamps them into the range ingest accepts.
@Suite struct ExtremeInstantTests {
    static let extremes: [(purchase: Int64, expires: Int64, revocation: Int64?)] = [
        (0, .max, nil), (.min, 0, nil), (.min, .max, nil), (0, 0, .max), (1_790_000_000_000, .max, .max),
        (1_790_000_000_000, .min, nil), (.max, .max, nil), (-1, 1, 0),
    ]

    @Test func everyReportTakesInt64MinMaxAndZero() throws {
        let calendar = try #require(ReportCalendar(timeZone: "America/Los_Angeles", asOfYear: 2026, month: 11, day: 19))
        var transactions: [SubscriptionTransaction] = []
        for (index, extreme) in Self.extremes.enumerated() {
            transactions.append(
                SubscriptionTransaction(
                    transactionId: "t\(index)", originalTransactionId: "s\(index % 3)", productId: "p\(index % 2)",
                    subscriptionGroupIdentifier: "g", purchaseDate: extreme.purchase, expiresDate: extreme.expires,
                    revocationDate: extreme.revocation, signedDate: .max, offerType: 1, offerIdentifier: "o",
                    offerDiscountType: "FREE_TRIAL",
                    offerPeriod: "P1W"))
        }
        let renewals = [
            "s0": RenewalState(originalTransactionId: "s0", signedDate: .min, autoRenewStatus: 0, gracePeriodExpiresDate: .max),
            "s1": RenewalState(originalTransactionId: "s1", signedDate: .max, expirationIntent: 2, gracePeriodExpiresDate: .min),
        ]
        let model = SubscriptionModel(transactions: transactions, renewals: renewals, asOf: calendar.asOf, gracePeriodDays: 28)
        #expect(!model.timelines.isEmpty)
        for timeline in model.timelines {
            let row = SubscriptionsReport.Row(timeline).cells
            #expect(row.count == ReportSchema.subscriptions.columns.count)
            for instant in timeline.spans.flatMap({ [$0.start, $0.end] }) {
                #expect(FieldValue.instantRange.contains(instant))
            }
        }
        let months = calendar.months(from: model.timelines.compactMap { $0.transactions.first?.purchaseDate }.min() ?? calendar.asOf - 1)
        #expect(months.count < 400)
        let monthly = ChurnReport(periods: months, timelines: model.timelines)
        #expect(!monthly.rows(productGroups: model.productGroups).isEmpty)
        _ = ChurnReport(periods: calendar.days(count: 90), timelines: model.timelines).rows(productGroups: model.productGroups)
        _ = ExpirationReasonsReport.rows(model.timelines)
        _ = OfferUsageReport.rows(model.timelines)
        _ = RetentionCohortsReport.rows(model.timelines, calendar: calendar)
    }

    /// Formatting is total: every Int64 gives text (a wider, signed year outside 0–9999).
    @Test(arguments: [Int64.min, Int64.min + 1, -1, 0, 253_402_300_799_999, 253_402_300_800_000, Int64.max])
    func everyInstantFormats(_ milliseconds: Int64) {
        let text = InstantFormat.iso8601(milliseconds: milliseconds)
        #expect(text.hasSuffix("Z") && text.count >= 24)
        var bytes: [UInt8] = []
        InstantFormat.appendISO8601(milliseconds: milliseconds, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == text)
    }
}
