import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackCore

/// Newcombe's worked examples and the outcome rules of docs/campaigns.md on a hand-made cohort.
@Suite struct CampaignOutcomesTests {
    /// Newcombe (1998), Statistics in Medicine 17:873–890, Table II, method 10, examples (a)–(h).
    @Test(arguments: [
        (56, 70, 48, 80, "0.0524", "0.3339"), (9, 10, 3, 10, "0.1705", "0.8090"), (6, 7, 2, 7, "0.0582", "0.8062"),
        (5, 56, 0, 29, "-0.0381", "0.1926"), (0, 10, 0, 20, "-0.1611", "0.2775"), (0, 10, 0, 10, "-0.2775", "0.2775"),
        (10, 10, 0, 20, "0.6791", "1.0000"), (10, 10, 0, 10, "0.6075", "1.0000"),
    ])
    func newcombeIntervalsMatchThePaper(_ x1: Int, _ n1: Int, _ x2: Int, _ n2: Int, _ low: String, _ high: String) throws {
        let interval = try #require(ProportionInterval.newcombe(x1, of: n1, x2, of: n2))
        // The paper prints four decimals.
        #expect(abs(interval.low - (Double(low) ?? .nan)) < 0.00005, "\(interval.low)")
        #expect(abs(interval.high - (Double(high) ?? .nan)) < 0.00005, "\(interval.high)")
    }

    @Test func wilsonEdges() throws {
        #expect(ProportionInterval.wilson(0, of: 0) == nil)
        #expect(try #require(ProportionInterval.wilson(0, of: 20)).low == 0)
        #expect(try #require(ProportionInterval.wilson(20, of: 20)).high == 1)
        #expect(ProportionInterval.newcombe(1, of: 2, 0, of: 0) == nil)
    }

    static func day(_ text: String) -> Int64 { HandCheckedReportTests.day(text) }

    /// A win-back cohort selected on 2026-03-01 (`T_S` = Mar 2), `T` = Apr 1: windows of 7 and 30 days are
    /// mature, 60 and 90 are not.
    static func timelines() -> [String: SubscriptionTimeline] {
        let asOf = day("2026-04-01")
        func tx(
            _ subscription: String, _ id: String, _ purchase: String, _ expires: String, offer: String? = nil, trial: Bool = false,
            revoked: String? = nil, instalment: Int32? = nil, price: Int64 = 9990
        ) -> SubscriptionTransaction {
            SubscriptionTransaction(
                transactionId: id, originalTransactionId: subscription, productId: "m", purchaseDate: day(purchase),
                expiresDate: day(expires), revocationDate: revoked.map(day), offerType: offer == nil ? (trial ? 1 : nil) : 4,
                offerIdentifier: offer, offerDiscountType: trial ? "FREE_TRIAL" : offer == nil ? nil : "PAY_AS_YOU_GO",
                commitment: instalment.map { TransactionCommitmentInfo(billingPeriodNumber: $0, totalBillingPeriods: 12) }, price: price,
                currency: "USD")
        }
        let transactions = [
            // t1: came back on Mar 5 with the offer (redeemed and converted within 7 days).
            tx("t1", "t1a", "2025-12-01", "2026-01-01"), tx("t1", "t1b", "2026-03-05", "2026-04-05", offer: "wb"),
            // t2: came back on Mar 20 without the offer (converted within 30 days only).
            tx("t2", "t2a", "2025-12-01", "2026-01-01"), tx("t2", "t2b", "2026-03-20", "2026-04-20"),
            // t3: a free trial in the window: not a conversion.
            tx("t3", "t3a", "2025-12-01", "2026-01-01"), tx("t3", "t3b", "2026-03-05", "2026-03-12", trial: true, price: 0),
            // h1: came back on its own on Mar 3, then refunded: not a conversion.
            tx("h1", "h1a", "2025-12-01", "2026-01-01"), tx("h1", "h1b", "2026-03-03", "2026-04-03", revoked: "2026-03-10"),
            // h2: a commitment's second instalment on Mar 4: not a period the customer chose.
            tx("h2", "h2a", "2026-02-04", "2026-03-04", instalment: 1), tx("h2", "h2b", "2026-03-04", "2026-04-04", instalment: 2),
        ]
        let model = SubscriptionModel(transactions: transactions, renewals: [:], asOf: asOf, gracePeriodDays: 0)
        return Dictionary(uniqueKeysWithValues: model.timelines.map { ($0.originalTransactionId, $0) })
    }

    static let cohort = CampaignCohort(
        campaignId: "wb", selectedOn: "2026-03-01", windowStart: day("2026-03-02"), audience: "win_back",
        members: [
            .init(originalTransactionId: "t1", variant: .treatment, offerIdentifier: "wb"),
            .init(originalTransactionId: "t2", variant: .treatment, offerIdentifier: "wb"),
            .init(originalTransactionId: "t3", variant: .treatment, offerIdentifier: "wb"),
            .init(originalTransactionId: "h1", variant: .holdout, offerIdentifier: "wb"),
            .init(originalTransactionId: "h2", variant: .holdout, offerIdentifier: "wb"),
            .init(originalTransactionId: "gone", variant: .holdout, offerIdentifier: "wb"),
        ])

    @Test func cohortRowsPerWindowAndPooledRowsOfMatureCohorts() {
        let settings = MoneySettings(currency: "USD", exchangeRatesFile: "r.csv")
        let context = MoneyContext(settings: settings, rates: ExchangeRates(reportingCurrency: "USD", rows: []))
        let rows = CampaignOutcomesReport.rows(
            [Self.cohort], timelines: Self.timelines(), asOf: Self.day("2026-04-01"), context: context
        ).map { HandCheckedReportTests.csv([$0.cells])[0] }
        // 7 days: 1 of 3 against 0 of 3; 30 days: 2 of 3 against 0 of 3 (intervals as Newcombe's method 10
        // gives them). Net: h1's refund of Mar 10 falls in the 30-day window only; h2's instalment is revenue
        // though not a conversion.
        // The confidence sequence (default tuning) spans everything at 6 accounts; no split check without a design.
        let seven = "3,1,1,0.333333,3,0,0,0.000000,0.333333,-0.290507,0.792340,-1.000000,1.000000,0.989228,,9990,19980,USD"
        let thirty = "3,1,2,0.666667,3,0,0,0.000000,0.666667,-0.058569,0.938508,-1.000000,1.000000,0.893062,,19980,9990,USD"
        #expect(
            rows == [
                "wb,,7,win_back,wb,true," + seven, "wb,,30,win_back,wb,true," + thirty, "wb,2026-03-01,7,win_back,wb,true," + seven,
                "wb,2026-03-01,30,win_back,wb,true," + thirty, "wb,2026-03-01,60,win_back,wb,false," + thirty,
                "wb,2026-03-01,90,win_back,wb,false," + thirty,
            ])
    }

    @Test func noHoldoutNoLiftAndNoCurrencyNoRevenue() {
        var cohort = Self.cohort
        cohort.members.removeAll { $0.variant == .holdout }
        let rows = CampaignOutcomesReport.rows([cohort], timelines: Self.timelines(), asOf: Self.day("2026-04-01"), context: .unconverted)
        let first = rows.first?.cells ?? []
        #expect(first.count == ReportSchema.campaignOutcomes.columns.count)
        #expect(Array(first[10...19]) == ["0", "0", "0", nil, nil, nil, nil, nil, nil, nil])
    }

    /// docs/campaigns.md: redeemed counts the selection's offer identifier with offer type 2 (promotional), 3 (offer
    /// code), 4 (win-back) or 5 (retention); an introductory offer or an unknown type does not count.
    @Test(arguments: [(Int32(1), "0"), (2, "1"), (3, "1"), (4, "1"), (5, "1"), (6, "0")])
    func redeemedCountsOfferTypesTwoToFive(offerType: Int32, redeemed: String) {
        let transactions = [
            SubscriptionTransaction(
                transactionId: "a", originalTransactionId: "s", productId: "m", purchaseDate: Self.day("2025-12-01"),
                expiresDate: Self.day("2026-01-01"), price: 9990, currency: "USD"),
            SubscriptionTransaction(
                transactionId: "b", originalTransactionId: "s", productId: "m", purchaseDate: Self.day("2026-03-05"),
                expiresDate: Self.day("2026-04-05"), offerType: offerType, offerIdentifier: "code-ref", offerDiscountType: "PAY_AS_YOU_GO",
                price: 4990, currency: "USD"),
        ]
        let model = SubscriptionModel(transactions: transactions, renewals: [:], asOf: Self.day("2026-04-01"), gracePeriodDays: 0)
        let cohort = CampaignCohort(
            campaignId: "c", selectedOn: "2026-03-01", windowStart: Self.day("2026-03-02"), audience: "win_back",
            members: [.init(originalTransactionId: "s", variant: .treatment, offerIdentifier: "code-ref")])
        let rows = CampaignOutcomesReport.rows(
            [cohort], timelines: Dictionary(uniqueKeysWithValues: model.timelines.map { ($0.originalTransactionId, $0) }),
            asOf: Self.day("2026-04-01"), context: .unconverted)
        let treatmentRedeemed = ReportSchema.campaignOutcomes.columns.firstIndex { $0.name == "treatment_redeemed" } ?? 0
        #expect(rows.first?.cells[treatmentRedeemed] == redeemed)
    }
}
