import Testing
import WinbackAnalytics
import WinbackAppStore

/// A dozen subscriptions whose expected report rows were worked out by hand from the report definitions
/// (UTC, as-of 2026-03-31, so `T` = 2026-04-01T00:00Z; grace period 16 days).
@Suite struct HandCheckedReportTests {
    static func day(_ text: String) -> Int64 {
        let (year, month, day) = ReportCalendar.parseDate(text) ?? (1970, 1, 1)
        return InstantFormat.days(year: Int64(year), month: Int64(month), day: Int64(day)) * InstantFormat.day
    }

    static func tx(
        _ subscription: String, _ id: String, _ product: String, _ purchase: String, _ expires: String, trial: Bool = false,
        offer: (Int32, String?, String, String)? = nil, revoked: String? = nil, upgraded: Bool = false, family: Bool = false
    ) -> SubscriptionTransaction {
        SubscriptionTransaction(
            transactionId: id, originalTransactionId: subscription, productId: product, subscriptionGroupIdentifier: "g1",
            purchaseDate: day(purchase), expiresDate: day(expires), revocationDate: revoked.map(day), isUpgraded: upgraded,
            offerType: trial ? 1 : offer?.0, offerIdentifier: offer?.1, offerDiscountType: trial ? "FREE_TRIAL" : offer?.2,
            offerPeriod: trial ? "P1W" : offer?.3, inAppOwnershipType: family ? "FAMILY_SHARED" : "PURCHASED")
    }

    static let transactions: [SubscriptionTransaction] = [
        tx("1", "1a", "m", "2026-01-10", "2026-02-10"), tx("1", "1b", "m", "2026-02-10", "2026-03-10"),
        tx("1", "1c", "m", "2026-03-10", "2026-04-10"),
        tx("2", "2a", "m", "2026-01-05", "2026-01-12", trial: true),
        tx("3", "3a", "m", "2026-01-01", "2026-01-08", trial: true), tx("3", "3b", "m", "2026-01-08", "2026-02-08"),
        tx("3", "3c", "m", "2026-02-08", "2026-03-08"),
        tx("4", "4a", "m", "2026-01-15", "2026-02-15"), tx("4", "4b", "m", "2026-02-20", "2026-03-20"),
        tx("4", "4c", "m", "2026-03-20", "2026-04-20"),
        tx("5", "5a", "m", "2026-01-02", "2026-02-02"), tx("5", "5b", "m", "2026-02-25", "2026-03-25"),
        tx("6", "6a", "m", "2026-02-03", "2026-03-03", revoked: "2026-02-13"),
        tx("7", "7a", "m", "2026-01-20", "2026-02-20", upgraded: true), tx("7", "7b", "a", "2026-02-01", "2027-02-01"),
        tx("8", "8a", "m", "2025-10-01", "2025-11-01"),
        tx("8", "8b", "m", "2026-03-10", "2026-04-10", offer: (4, "wb", "PAY_AS_YOU_GO", "P1M")),
        tx("9", "9a", "m", "2026-01-01", "2026-02-01", family: true), tx("9", "9b", "m", "2026-02-01", "2026-03-01", family: true),
        tx("10", "10a", "m", "2026-03-01", "2026-04-01"),
        tx("11", "11a", "m", "2026-02-10", "2026-03-10"),
        tx("12", "12a", "m", "2026-02-28", "2026-03-28"),
    ]

    static let renewals: [String: RenewalState] = [
        "1": RenewalState(originalTransactionId: "1", autoRenewStatus: 1),
        "2": RenewalState(originalTransactionId: "2", autoRenewStatus: 0, expirationIntent: 1),
        "3": RenewalState(originalTransactionId: "3", autoRenewStatus: 0, expirationIntent: 1),
        "4": RenewalState(originalTransactionId: "4", autoRenewStatus: 1),
        "5": RenewalState(originalTransactionId: "5", autoRenewStatus: 0, expirationIntent: 2, isInBillingRetryPeriod: false),
        "7": RenewalState(originalTransactionId: "7", autoRenewStatus: 1),
        "8": RenewalState(originalTransactionId: "8", autoRenewStatus: 1),
        "9": RenewalState(originalTransactionId: "9", autoRenewStatus: 1),
        "10": RenewalState(originalTransactionId: "10", autoRenewStatus: 0, expirationIntent: 1),
        "11": RenewalState(
            originalTransactionId: "11", autoRenewStatus: 1, expirationIntent: 2, isInBillingRetryPeriod: true,
            gracePeriodExpiresDate: day("2026-03-26")),
        "12": RenewalState(
            originalTransactionId: "12", autoRenewStatus: 1, expirationIntent: 2, isInBillingRetryPeriod: true,
            gracePeriodExpiresDate: day("2026-04-13")),
    ]

    static let calendar = ReportCalendar(timeZone: "UTC", asOfYear: 2026, month: 3, day: 31)

    static func model() throws -> (SubscriptionModel, ReportCalendar) {
        let calendar = try #require(Self.calendar)
        return (SubscriptionModel(transactions: transactions, renewals: renewals, asOf: calendar.asOf, gracePeriodDays: 16), calendar)
    }

    static func csv(_ rows: [[String?]]) -> [String] { rows.map { CSVFormat.line($0).replacingOccurrences(of: "\n", with: "") } }
    static func csv(_ rows: [some TableRow]) -> [String] { csv(rows.map(\.cells)) }

    @Test func statusesAtT() throws {
        let (model, _) = try Self.model()
        let statuses = Dictionary(uniqueKeysWithValues: model.timelines.map { ($0.originalTransactionId, $0.status.rawValue) })
        #expect(
            statuses == [
                "1": "active", "2": "expired", "3": "expired", "4": "active", "5": "expired", "6": "revoked", "7": "active",
                "8": "active", "9": "expired", "10": "expired", "11": "billing_retry", "12": "billing_grace_period",
            ])
        #expect(model.timelines.map(\.originalTransactionId) == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"])
    }

    @Test func churnMonthlyMatchesTheHandCount() throws {
        let (model, calendar) = try Self.model()
        let reports = RunReportsFixture(model: model, calendar: calendar)
        #expect(
            Self.csv(reports.churnMonthly) == [
                "2025-10,m,,g1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0.000000",
                "2025-11,m,,g1,0,0,0,0,1,0,0,0,0,0,0,0,0,1,",
                "2026-01,m,,g1,0,5,6,0,0,0,0,0,0,0,0,0,0,0,",
                "2026-02,a,,g1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0.000000",
                "2026-02,m,,g1,4,6,3,1,2,0,0,0,0,0,0,0,1,1,0.500000",
                "2026-03,a,,g1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0.000000",
                "2026-03,m,,g1,7,4,1,1,4,1,0,1,2,0,0,0,0,0,0.571429",
            ])
    }

    @Test func expirationReasonsMatchTheHandCount() throws {
        let (model, _) = try Self.model()
        #expect(
            Self.csv(ExpirationReasonsReport.rows(model.timelines)) == [
                "m,billing_error,2,1,0.200000", "m,refund,,1,0.200000", "m,voluntary,1,3,0.600000",
            ])
    }

    @Test func offerUsageMatchesTheHandCount() throws {
        let (model, _) = try Self.model()
        #expect(
            Self.csv(OfferUsageReport.rows(model.timelines)) == [
                "1,,FREE_TRIAL,P1W,2,0,2,1,0.500000,0", "4,wb,PAY_AS_YOU_GO,P1M,1,1,0,0,,0",
            ])
    }

    @Test func retentionCohortsMatchTheHandCount() throws {
        let (model, calendar) = try Self.model()
        #expect(
            Self.csv(RetentionCohortsReport.rows(model.timelines, calendar: calendar)) == [
                "2025-10,m,,0,1,1,1,1.000000", "2025-10,m,,1,1,1,1,1.000000", "2025-10,m,,2,1,1,0,0.000000",
                "2025-10,m,,3,1,1,0,0.000000", "2025-10,m,,4,1,1,0,0.000000", "2025-10,m,,5,1,1,0,0.000000",
                "2026-01,m,,0,5,5,5,1.000000", "2026-01,m,,1,5,5,5,1.000000", "2026-01,m,,2,5,5,2,0.400000",
                "2026-02,m,,0,3,3,2,0.666667", "2026-02,m,,1,3,3,0,0.000000", "2026-02,m,,2,3,1,0,0.000000",
                "2026-03,m,,0,1,1,1,1.000000",
            ])
    }

    /// The bytes `subscriptions.csv` is written with are the CSV line of the row, for every subscription here
    /// and for fields that need quoting, capitals in a token, a negative or wide-year instant and absent ones.
    @Test func subscriptionLinesAreTheRowsCSV() throws {
        let (model, calendar) = try Self.model()
        var edge = Self.tx("e,1", "e1", "p\"q", "2026-01-10", "2026-02-10")
        edge.appAccountToken = "ABCDEF01-0000-4000-8000-00000000000A"
        edge.storefront = "line\nbreak"
        edge.purchaseDate = -1
        let wide = Self.tx("w", "w1", "m", "2026-01-10", "2026-02-10", offer: (2, "a,b", "PAY_UP_FRONT", "P1Y"))
        var later = wide
        later.transactionId = "w2"
        later.purchaseDate = 400_000_000_000_000
        later.expiresDate = 400_000_100_000_000
        let renewals = ["w": RenewalState(originalTransactionId: "w", autoRenewStatus: 1, eligibleWinBackOfferIds: ["x", "y,z"])]
        let edges = SubscriptionModel(transactions: [edge, wide, later], renewals: renewals, asOf: calendar.asOf, gracePeriodDays: 16)
        let timelines = model.timelines + edges.timelines
        #expect(timelines.count == 14)
        for timeline in timelines {
            var written: [UInt8] = [7]
            CSVRowFields.append(SubscriptionsReport.Row(timeline), to: &written)
            var expected: [UInt8] = [7]
            CSVFormat.append(SubscriptionsReport.Row(timeline).cells, to: &expected)
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test func subscriptionRowsForTheEdgeCases() throws {
        let (model, _) = try Self.model()
        let rows = Dictionary(uniqueKeysWithValues: model.timelines.map { ($0.originalTransactionId, SubscriptionsReport.Row($0).cells) })
        // expiresDate exactly at T: not active, no lapse before T, lapsed_at = T.
        #expect(rows["10"]?[7] == "expired")
        #expect(rows["10"]?[11] == "2026-04-01T00:00:00.000Z")
        #expect(rows["10"]?[12] == "voluntary")
        // Refund mid-period without renewal info: revoked, refund, renewal columns empty, 10 paid days, no paid periods.
        #expect(
            rows["6"].map { [$0[7], $0[11], $0[12], $0[13], $0[18], $0[19]] } == [
                "revoked", "2026-02-13T00:00:00.000Z", "refund", nil, "0", "10",
            ])
        // Upgrade: the monthly covers only until the annual starts.
        #expect(
            rows["7"].map { [$0[4], $0[7], $0[19]] } == [
                "a", "active", String((Self.day("2026-04-01") - Self.day("2026-01-20")) / InstantFormat.day),
            ])
        // Grace recovery inside the window: one span, consecutive = all paid days.
        #expect(rows["4"].map { [$0[19], $0[20]] } == ["71", "71"])
        // Lapse outside the grace window: consecutive days only from the last span.
        #expect(rows["5"].map { [$0[11], $0[12], $0[19], $0[20]] } == ["2026-03-25T00:00:00.000Z", "billing_error", "59", "28"])
        // Resubscribe after months with a win-back offer.
        #expect(rows["8"].map { [$0[7], $0[21], $0[22]] } == ["active", "4", "wb"])
        // Family sharing is listed here and nowhere else.
        #expect(rows["9"]?[6] == "FAMILY_SHARED")
        // A trial that never converts: no paid days.
        #expect(rows["2"].map { [$0[7], $0[12], $0[18], $0[19]] } == ["expired", "voluntary", "0", "0"])
    }

    /// The annual product `a` billed up front (subscription "u") and monthly over a 12-month commitment
    /// ("c", three instalments so far; "n", a fourth subscription whose transactions predate billing plans):
    /// churn, cohorts and the subscriptions row keep the plans apart (docs/notifications-and-commitments.md).
    @Test func billingPlansAreKeptApart() throws {
        let calendar = try #require(Self.calendar)
        var upfront = Self.tx("u", "u1", "a", "2026-01-05", "2027-01-05")
        upfront.billingPlanType = "BILLED_UPFRONT"
        let instalments = [("2026-01-20", "2026-02-20"), ("2026-02-20", "2026-03-20"), ("2026-03-20", "2026-04-20")].enumerated().map {
            index, dates in
            SubscriptionTransaction(
                transactionId: "c\(index + 1)", originalTransactionId: "c", productId: "a", subscriptionGroupIdentifier: "g1",
                purchaseDate: Self.day(dates.0), expiresDate: Self.day(dates.1), billingPlanType: "MONTHLY",
                commitment: TransactionCommitmentInfo(
                    billingPeriodNumber: Int32(index + 1), commitmentExpiresDate: Self.day("2027-01-20"), totalBillingPeriods: 12))
        }
        let unplanned = Self.tx("n", "n1", "a", "2026-01-25", "2027-01-25")
        let renewals = [
            "c": RenewalState(
                originalTransactionId: "c", autoRenewStatus: 1, renewalBillingPlanType: "MONTHLY", commitmentAutoRenewStatus: 0)
        ]
        let model = SubscriptionModel(
            transactions: [upfront, unplanned] + instalments, renewals: renewals, asOf: calendar.asOf, gracePeriodDays: 16)
        let reports = RunReportsFixture(model: model, calendar: calendar)
        #expect(
            Self.csv(reports.churnMonthly) == [
                "2026-01,a,,g1,0,1,1,0,0,0,0,0,0,0,0,0,0,0,", "2026-01,a,BILLED_UPFRONT,g1,0,1,1,0,0,0,0,0,0,0,0,0,0,0,",
                "2026-01,a,MONTHLY,g1,0,1,1,0,0,0,0,0,0,0,0,0,0,0,", "2026-02,a,,g1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0.000000",
                "2026-02,a,BILLED_UPFRONT,g1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0.000000",
                "2026-02,a,MONTHLY,g1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0.000000", "2026-03,a,,g1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0.000000",
                "2026-03,a,BILLED_UPFRONT,g1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0.000000",
                "2026-03,a,MONTHLY,g1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0.000000",
            ])
        // Three monthly periods of "c" have begun before T: eligible and retained for k = 0…2.
        #expect(
            Self.csv(RetentionCohortsReport.rows(model.timelines, calendar: calendar)) == [
                "2026-01,a,,0,1,1,1,1.000000", "2026-01,a,BILLED_UPFRONT,0,1,1,1,1.000000", "2026-01,a,MONTHLY,0,1,1,1,1.000000",
                "2026-01,a,MONTHLY,1,1,1,1,1.000000", "2026-01,a,MONTHLY,2,1,1,1,1.000000",
            ])
        let columns = ReportSchema.subscriptions.columns.map(\.name)
        let rows = Dictionary(uniqueKeysWithValues: model.timelines.map { ($0.originalTransactionId, SubscriptionsReport.Row($0).cells) })
        func values(_ id: String) -> [String?] {
            let row = rows[id] ?? []
            return [
                "billing_plan_type", "commitment_period_number", "commitment_total_periods", "commitment_expires_date",
                "renewal_billing_plan_type",
            ].map { name in columns.firstIndex(of: name).flatMap { $0 < row.count ? row[$0] : nil } }
        }
        #expect(values("c") == ["MONTHLY", "3", "12", "2027-01-20T00:00:00.000Z", "MONTHLY"])
        #expect(values("u") == ["BILLED_UPFRONT", nil, nil, nil, nil])
        #expect(values("n") == [nil, nil, nil, nil, nil])
    }

    @Test func invariantsHold() throws {
        let (model, calendar) = try Self.model()
        let reports = RunReportsFixture(model: model, calendar: calendar)
        for row in (reports.churnMonthly + reports.churnDaily).map(\.cells) {
            let churned = Int(row[8] ?? "") ?? -1
            let split = (9...17).map { Int(row[$0] ?? "") ?? 0 }.reduce(0, +)
            #expect(churned == split)
        }
        for row in OfferUsageReport.rows(model.timelines) {
            #expect(row.converted <= row.completed && row.completed <= row.redemptions)
        }
        for row in RetentionCohortsReport.rows(model.timelines, calendar: calendar) {
            #expect(row.retained <= row.eligible && row.eligible <= row.cohortSize)
        }
    }
}

/// The two churn tables for the fixture.
struct RunReportsFixture {
    var churnMonthly: [ChurnReport.Row]
    var churnDaily: [ChurnReport.Row]

    init(model: SubscriptionModel, calendar: ReportCalendar) {
        let reportable = model.reportable
        let first = reportable.compactMap { $0.transactions.first?.purchaseDate }.min() ?? 0
        churnMonthly = ChurnReport(periods: calendar.months(from: first), timelines: reportable).rows(productGroups: model.productGroups)
        churnDaily = ChurnReport(periods: calendar.days(count: 90), timelines: reportable).rows(productGroups: model.productGroups)
    }
}
