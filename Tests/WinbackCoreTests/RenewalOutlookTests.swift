import Foundation
import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackOutlook

/// The renewal outlook (docs/renewal-outlook.md), hand-checked: the shrunk segment rates, the past renewals and
/// rows read from timelines, the expected proceeds, `main_factor`, the no-future-data rule and the backtest's
/// measures on a worked example. `D` = 2026-06-30 (UTC), grace 16 days, a monthly product at 9.99 USD.
@Suite struct RenewalOutlookTests {
    static let day = InstantFormat.day
    static func at(_ month: Int64, _ dayOfMonth: Int64) -> Int64 { InstantFormat.days(year: 2026, month: month, day: dayOfMonth) * day }
    static let asOf = at(7, 1)
    static let money = MoneyContext(
        settings: MoneySettings(currency: "USD", exchangeRatesFile: "r.csv"), rates: ExchangeRates(reportingCurrency: "USD", rows: []))

    static func transaction(
        _ id: String, _ original: String, _ purchase: Int64, _ expires: Int64, trial: Bool = false, product: String = "m"
    ) -> SubscriptionTransaction {
        SubscriptionTransaction(
            transactionId: id, originalTransactionId: original, productId: product, purchaseDate: purchase, expiresDate: expires,
            signedDate: purchase + 60_000, offerType: trial ? 1 : nil, offerDiscountType: trial ? "FREE_TRIAL" : nil, storefront: "USA",
            price: trial ? 0 : 9990, currency: "USD")
    }

    static func features(
        autoRenew: Bool = true, billing: RenewalFeatures.BillingState = .none, kind: RenewalFeatures.PeriodKind = .standard, index: Int = 4,
        price: Bool = false, product: String = "m"
    ) -> RenewalFeatures {
        RenewalFeatures(
            autoRenew: autoRenew, billing: billing, kind: kind, renewalIndex: index, priceIncreasePending: price, productId: product)
    }

    /// a: a free trial, two paid months, then cancelled (expiration intent 1); b: active, renews on July 10; c: in
    /// billing retry since June 19; d: expired long ago.
    static func model(
        extra: [SubscriptionTransaction] = [], renewals extraRenewals: [RenewalState] = [], notifications: [NotificationEvent] = []
    )
        -> SubscriptionModel
    {
        let transactions = [
            transaction("a1", "a", at(1, 1), at(1, 31), trial: true), transaction("a2", "a", at(1, 31), at(3, 2)),
            transaction("a3", "a", at(3, 2), at(4, 1)), transaction("b1", "b", at(6, 10), at(7, 10)),
            transaction("c1", "c", at(5, 20), at(6, 19)), transaction("d1", "d", at(1, 5), at(2, 4)),
        ]
        var renewals = [
            "a": RenewalState(originalTransactionId: "a", signedDate: at(4, 1), autoRenewStatus: 0, expirationIntent: 1),
            "b": RenewalState(originalTransactionId: "b", signedDate: at(6, 10), autoRenewStatus: 1),
            "c": RenewalState(originalTransactionId: "c", signedDate: at(6, 20), autoRenewStatus: 1, isInBillingRetryPeriod: true),
        ]
        for renewal in extraRenewals { renewals[renewal.originalTransactionId] = renewal }
        var model = SubscriptionModel(transactions: transactions + extra, renewals: renewals, asOf: asOf, gracePeriodDays: 16)
        model.attach(notifications)
        return model
    }

    static func outlook(_ model: SubscriptionModel) -> (part: RenewalOutlook, rows: [RenewalOutlookRow]) {
        var facts: [RenewalFacts] = []
        let part = RenewalOutlook.part(model, graceDays: 16) { facts.append($0) }
        return (
            part,
            facts.map { RenewalOutlookRow($0, estimates: RenewalEstimates(part.estimator), prices: part.prices, money: money, asOf: asOf) }
        )
    }

    @Test func aSegmentsRateIsShrunkTowardItsParent() {
        var tally = RenewalTally()
        for index in 0..<100 { tally.add(Self.features(), renewed: index < 80) }
        for index in 0..<4 { tally.add(Self.features(product: "new"), renewed: index < 3) }
        let estimator = RenewalEstimator(tally)
        #expect(estimator.overall == 84.0 / 106.0)
        // "on|none": (83 + 20 · 84/106) / (104 + 20); each deeper level the same shape.
        var expected = (83.0 + 20 * 84.0 / 106.0) / 124.0
        expected = (83.0 + 20 * expected) / 124.0  // + standard
        expected = (83.0 + 20 * expected) / 124.0  // + tenure 3 (3–5)
        expected = (83.0 + 20 * expected) / 124.0  // + no price increase
        let parent = expected
        #expect(abs(estimator.probability(Self.features(product: "m")) - (80.0 + 20 * parent) / 120.0) < 1e-12)
        // A product with 4 past renewals (3 renewed) borrows from its parent: near it, not at 0.75.
        let sparse = estimator.probability(Self.features(product: "new"))
        #expect(abs(sparse - (3.0 + 20 * parent) / 24.0) < 1e-12)
        // A product with no past at all is its parent's rate.
        #expect(abs(estimator.probability(Self.features(product: "never")) - parent) < 1e-12)
        // The product-average baseline: the product's own counts shrunk toward the overall rate.
        #expect(abs(estimator.productAverage("new") - (3.0 + 20 * 84.0 / 106.0) / 24.0) < 1e-12)
    }

    @Test func aFirstPriceIncreaseBorrowsTheEffectOtherProductsShowed() {
        var tally = RenewalTally()
        for index in 0..<200 { tally.add(Self.features(product: "old"), renewed: index < 180) }
        for index in 0..<200 { tally.add(Self.features(price: true, product: "old"), renewed: index < 100) }
        for index in 0..<200 { tally.add(Self.features(product: "fresh"), renewed: index < 180) }
        let estimator = RenewalEstimator(tally)
        let withIncrease = estimator.probability(Self.features(price: true, product: "fresh"))
        let without = estimator.probability(Self.features(product: "fresh"))
        #expect(withIncrease < 0.6 && without > 0.85, "\(withIncrease) \(without)")
        #expect(estimator.mainFactor(Self.features(price: true, product: "fresh")) == .priceIncreasePending)
    }

    @Test func pastRenewalsAndRowsAreReadFromTheTimelines() throws {
        let (part, rows) = Self.outlook(Self.model())
        // a's three period ends: the trial converted, the first paid month renewed, the second was cancelled.
        #expect(part.tally.counts("on|none|free_trial|0|-|m") == RenewalTally.Counts(due: 1, renewed: 1))
        // a's first paid month renewed; d's only month did not (nothing says auto-renew was off).
        #expect(part.tally.counts("on|none|standard|0|-|m") == RenewalTally.Counts(due: 2, renewed: 1))
        #expect(part.tally.counts("off|none|standard|1|-|m") == RenewalTally.Counts(due: 1, renewed: 0))
        // b's and c's periods end too late to be known (July 10; June 19 + 16 days of grace).
        #expect(part.tally.counts("*")?.due == 4)
        #expect(rows.map(\.facts.originalTransactionId) == ["b", "c"])
        let b = rows[0].facts
        #expect(b.nextRenewalAt == Self.at(7, 10) && b.features == Self.features(index: 0) && b.accountKey == "b")
        let c = rows[1].facts
        // c's lapsed month is a paid period completed.
        #expect(c.nextRenewalAt == Self.at(6, 19) && c.features == Self.features(billing: .retry, index: 1))
        #expect(rows[0].cells[5...9] == ["standard", "0", "true", "none", "false"])
        #expect(rows[1].cells[8] == "retry")
    }

    /// With no past to learn from, every standard renewal is 0.5 and a billing retry's recovery 0.45 (its prior):
    /// b's 12 renewals in the year bring 6.993 USD each (9.99 less 30 % commission; the last, 365 service days on,
    /// less 15 %) with probability 0.5, 0.25, …
    @Test func expectedProceedsAreTheProbabilityWeightedRenewalsOfTheYear() {
        let estimator = RenewalEstimator(RenewalTally())
        let b = RenewalFacts(
            originalTransactionId: "b", accountKey: "b", productId: "m", storefront: "USA", nextRenewalAt: Self.at(7, 10),
            features: Self.features(index: 0), currency: "USD", billingPlan: nil,
            ownPrice: RenewalPrices.Price(purchaseDate: Self.at(6, 10), price: 9990, duration: 30 * Self.day),
            periodDuration: 30 * Self.day,
            isSale: true, serviceDays: 21)
        #expect(b.schedule(prices: RenewalPrices(), money: Self.money, asOf: Self.asOf).count == 12)
        let row = RenewalOutlookRow(b, estimates: RenewalEstimates(estimator), prices: RenewalPrices(), money: Self.money, asOf: Self.asOf)
        #expect(row.renewalProbability == 500_000 && row.riskBand == "medium" && row.mainFactor == nil)
        let commission = MoneySettings().commission
        let full = Double(MoneyMath.proceeds(9990, tax: .zero, commission: commission.rate(serviceDays: 0)))
        let reduced = Double(MoneyMath.proceeds(9990, tax: .zero, commission: commission.rate(serviceDays: 365)))
        #expect(full == 6993 && reduced > full)
        #expect(row.expectedProceeds12m == Int64((full * (1 - pow(0.5, 11)) + reduced * pow(0.5, 12)).rounded()))
        var c = b
        c.nextRenewalAt = Self.at(6, 19)
        c.features = Self.features(billing: .retry, index: 0)
        let retry = RenewalOutlookRow(
            c, estimates: RenewalEstimates(estimator), prices: RenewalPrices(), money: Self.money, asOf: Self.asOf)
        #expect(retry.renewalProbability == 450_000 && retry.riskBand == "high" && retry.mainFactor == .billingRetry)
        #expect(retry.expectedProceeds12m == Int64((full * 0.45 * (2 - pow(0.5, 11)) + reduced * 0.45 * pow(0.5, 12)).rounded()))
        // Not a sale: no proceeds; no reporting currency: unknown.
        var shared = b
        shared.isSale = false
        #expect(
            RenewalOutlookRow(shared, estimates: RenewalEstimates(estimator), prices: RenewalPrices(), money: Self.money, asOf: Self.asOf)
                .expectedProceeds12m
                == 0)
        let noCurrency = MoneyContext(settings: MoneySettings(), rates: nil)
        #expect(
            RenewalOutlookRow(b, estimates: RenewalEstimates(estimator), prices: RenewalPrices(), money: noCurrency, asOf: Self.asOf)
                .expectedProceeds12m
                == nil)
    }

    /// A renewal purchased after `D` and a notification signed after it (auto-renew turned off) change no row and
    /// no count. (The renewal info is read as every report reads it: the version the model keeps.)
    @Test func aRecordSignedAfterDChangesNothing() {
        let before = Self.outlook(Self.model())
        let after = Self.outlook(
            Self.model(
                extra: [Self.transaction("b2", "b", Self.at(7, 10), Self.at(8, 10))],
                notifications: [
                    NotificationEvent(
                        notificationUUID: "late", notificationType: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED",
                        signedDate: Self.asOf + 1000, originalTransactionId: "b")
                ]))
        #expect(after.rows == before.rows)
        #expect(after.part.tally == before.part.tally && after.part.backtestTally == before.part.backtestTally)
    }

    /// Four renewals predicted 0.9, 0.8, 0.3, 0.6 of which the first two renewed: Brier (0.01 + 0.04 + 0.09 + 0.36) / 4,
    /// log loss −(ln 0.9 + ln 0.8 + ln 0.7 + ln 0.4) / 4, AUC 1 (every renewal ranked above every lapse).
    @Test func theBacktestMeasuresAWorkedExample() {
        let backtest = RenewalBacktest([
            .init(predicted: 0.9, baseline: 0.5, renewed: true), .init(predicted: 0.8, baseline: 0.5, renewed: true),
            .init(predicted: 0.3, baseline: 0.5, renewed: false), .init(predicted: 0.6, baseline: 0.5, renewed: false),
        ])
        #expect(backtest.scored == 4)
        #expect(abs((backtest.brier ?? 0) - 0.125) < 1e-12)
        #expect(abs((backtest.logLoss ?? 0) - (-(log(0.9) + log(0.8) + log(0.7) + log(0.4)) / 4)) < 1e-12)
        #expect(backtest.auc == 1 && backtest.baselineAuc == 0.5 && backtest.baselineBrier == 0.25)
        #expect(backtest.calibration.map(\.count) == [0, 0, 0, 1, 0, 0, 1, 0, 1, 1])
        #expect(backtest.calibration[6].observedRate == 0 && backtest.calibration[9].meanPredicted == 0.9)
        #expect(backtest.baselineCalibration[5] == RenewalBacktest.Bin(count: 4, meanPredicted: 0.5, observedRate: 0.5))
        // Ties share their rank: one renewal and one lapse at the same prediction is 0.5.
        #expect(
            RenewalBacktest([.init(predicted: 0.4, baseline: 0, renewed: true), .init(predicted: 0.4, baseline: 0, renewed: false)]).auc
                == 0.5)
        #expect(RenewalBacktest([]).brier == nil && RenewalBacktest([]).auc == nil)
    }

    @Test func thePartTravelsAsJSONAndAddsUp() throws {
        let (part, _) = Self.outlook(Self.model())
        let read = try #require(RenewalOutlook(json: try JSONParser.parse(Array(JSONText.render(part.json).utf8))))
        #expect(read.tally == part.tally && read.prices == part.prices && read.scoring == part.scoring)
        var twice = part
        twice.add(read)
        #expect(twice.tally.counts("*")?.due == 2 * (part.tally.counts("*")?.due ?? 0))
        let (_, rows) = Self.outlook(Self.model())
        for row in rows {
            #expect(RenewalFacts(json: try JSONParser.parse(Array(JSONText.render(row.facts.json).utf8))) == row.facts)
        }
    }

    @Test func slicesPartsAddUpToTheWholeModels() {
        let model = Self.model()
        var whole: [RenewalFacts] = []
        let part = RenewalOutlook.part(model, graceDays: 16) { whole.append($0) }
        let scope = RenewalOutlook.Scope(model, graceDays: 16)
        for cut in 0...model.timelines.count {
            var facts: [RenewalFacts] = []
            var sum = RenewalOutlook.part(model.timelines[..<cut], scope) { facts.append($0) }
            sum.add(RenewalOutlook.part(model.timelines[cut...], scope) { facts.append($0) })
            #expect(sum.tally == part.tally && sum.backtestTally == part.backtestTally, "cut at \(cut)")
            #expect(sum.prices == part.prices && sum.scoring == part.scoring && facts == whole, "cut at \(cut)")
        }
        #expect(part.tally.counts("*")?.due ?? 0 > 0 && !whole.isEmpty)
    }

    @Test(arguments: [
        (#""maxRenewalProbability": 1.5"#, "retention", "maxRenewalProbability"),
        (#""maxRenewalProbability": "low""#, "retention", "maxRenewalProbability"),
        (#""minExpectedProceeds12m": -1"#, "retention", "minExpectedProceeds12m"),
        (#""maxRenewalProbability": 0.5, "lapseReasons": ["voluntary"]"#, "win_back", "maxRenewalProbability"),
    ])
    func badOutlookRulesAreRefusedNamingTheKey(_ rules: String, _ audience: String, _ key: String) throws {
        let campaign = """
            {"id": "c", "audience": "\(audience)", "offer": {"productId": null, "offerIdentifier": "o"},
             "rules": {"maxDaysToExpiry": 7, \(rules)}, "holdoutPercent": 0, "cooldownDays": 0, "signatures": ["v2"]}
            """
        let value = try JSONParser.parse(Array(campaign.utf8))
        do {
            var warnings: [String] = []
            _ = try CampaignParser.parse([value], warnings: &warnings)
            Issue.record("accepted \(rules)")
        } catch {
            #expect(error.key.hasSuffix(key), "\(error.key): \(error.message)")
        }
    }

    @Test func theOutlookRulesReadTheRow() throws {
        var warnings: [String] = []
        let campaign = try CampaignParser.parse(
            [
                try JSONParser.parse(
                    Array(
                        #"""
                        {"id": "c", "audience": "retention", "offer": {"productId": null, "offerIdentifier": "o"},
                         "rules": {"maxDaysToExpiry": 7, "maxRenewalProbability": 0.4, "minExpectedProceeds12m": 10.5},
                         "holdoutPercent": 0, "cooldownDays": 0, "signatures": ["v2"]}
                        """#.utf8))
            ], warnings: &warnings)[0]
        #expect(campaign.rules.maxRenewalProbability == 400_000 && campaign.rules.minExpectedProceeds12m == 10_500)
        #expect(campaign.rules.admitsOutlook(probability: 400_000, expectedProceeds12m: 10_500))
        #expect(!campaign.rules.admitsOutlook(probability: 400_001, expectedProceeds12m: 20_000))
        #expect(!campaign.rules.admitsOutlook(probability: 100_000, expectedProceeds12m: 10_499))
        #expect(!campaign.rules.admitsOutlook(probability: 100_000, expectedProceeds12m: nil))
    }
}
