import Testing
import WinbackTestSupport

@testable import WinbackAnalytics
@testable import WinbackCore
@testable import WinbackReportPage

@Suite struct ReportPageTests {
    /// A small run: two months, one product group, two offers, one cohort, one campaign.
    static func content(
        offers: [OfferUsageReport.Row]? = nil, products: Int = 1, groups: Int = 1, cohorts: Int = 1,
        productId: String = "com.example.monthly"
    ) -> ReportPageContent {
        var counts = IngestCounts()
        counts.read = 110
        counts.accepted = 107
        counts.rejected = 3
        counts.rejectedByCode = [.malformedJSON: 2, .invalidSignature: 1]
        counts.duplicates = 4
        counts.warnings = 1
        func churnRow(_ month: String, _ product: String, _ group: String, activeStart: Int, activeEnd: Int, churned: [Int])
            -> ChurnReport.Row
        {
            // churned: voluntary, price_increase, billing_error, billing_retry, product_unavailable, other, unknown, refund, returned
            let byReason = Dictionary(uniqueKeysWithValues: zip(ChurnReport.reasonColumns, churned).filter { $0.1 > 0 })
            return ChurnReport.Row(
                period: month, product: ProductPlan(productId: product, billingPlanType: nil), subscriptionGroupId: group,
                counts: ChurnReport.Counts(
                    activeStart: activeStart, activeEnd: activeEnd, churned: churned.reduce(0, +), byReason: byReason))
        }
        var churn: [ChurnReport.Row] = []
        for index in 0..<max(products, groups) {
            let product = index == 0 ? productId : "product.\(index)"
            let group = "group.\(index % groups)"
            churn.append(churnRow("2026-09", product, group, activeStart: 100, activeEnd: 96, churned: [3, 1, 0, 0, 0, 0, 0, 0, 0]))
            churn.append(churnRow("2026-10", product, group, activeStart: 96, activeEnd: 90, churned: [2, 0, 1, 1, 0, 1, 1, 1, 1]))
            churn.append(churnRow("2026-11", product, group, activeStart: 90, activeEnd: 91, churned: [1, 0, 0, 0, 0, 0, 0, 0, 0]))
        }
        var expiration: [ExpirationReasonsReport.Row] = []
        for index in 0..<products {
            let product = index == 0 ? productId : "product.\(index)"
            expiration.append(
                .init(productId: product, lapseReason: "voluntary", expirationIntent: 1, subscriptions: 6, productSubscriptions: 10))
            expiration.append(
                .init(productId: product, lapseReason: "billing_error", expirationIntent: 2, subscriptions: 4, productSubscriptions: 10))
        }
        let retention = (0..<cohorts).flatMap { cohort -> [RetentionCohortsReport.Row] in
            let month = "20\(20 + cohort / 12)-" + (cohort % 12 < 9 ? "0" : "") + String(cohort % 12 + 1)
            let product = ProductPlan(productId: productId, billingPlanType: nil)
            return [
                .init(cohortMonth: month, product: product, periodIndex: 0, cohortSize: 10, eligible: 10, retained: 10),
                .init(cohortMonth: month, product: product, periodIndex: 1, cohortSize: 10, eligible: 10, retained: 7),
            ]
        }
        return ReportPageContent(
            asOf: "2026-11-19", timeZone: "America/Los_Angeles", toolVersion: "0.1.0", inputFiles: 2, inputBytes: 2_500_000, counts: counts,
            future: 0, otherProductTypes: 2,
            subscriptionsByStatus: [("active", 91), ("expired", 10), ("billing_retry", 1), ("billing_grace_period", 0), ("revoked", 2)],
            familyShared: 3, offersSigned: true, lastFullMonth: "2026-10", months: ["2026-09", "2026-10", "2026-11"], churnMonthly: churn,
            expirationReasons: expiration,
            offerUsage: offers ?? [
                .init(
                    offerType: 1, offerIdentifier: nil, offerDiscountType: "FREE_TRIAL", offerPeriod: "P1W", redemptions: 40,
                    activeInOffer: 2,
                    completed: 38, converted: 19, refunded: 1),
                .init(
                    offerType: 2, offerIdentifier: "promo.1", offerDiscountType: "PAY_AS_YOU_GO", offerPeriod: "P1M", redemptions: 55,
                    activeInOffer: 5, completed: 50, converted: 40, refunded: 0),
            ],
            retentionCohorts: retention,
            campaigns: [.init(id: "winback-<voluntary>", eligible: 12, treatment: 10, holdout: 2, signed: 10)])
    }

    static func tableValues(_ html: String, id: String) throws -> [[String: String]] {
        try #require(ReportPageReader.table(html, id: id), "no table \(id)")
    }

    @Test func everySectionIsPresentInOrder() {
        let html = ReportPage.render(Self.content())
        var cursor = html.startIndex
        for id in ReportPage.sectionIDs {
            guard let range = html.range(of: "<section id=\"\(id)\">", range: cursor..<html.endIndex) else {
                Issue.record("section \(id) missing or out of order")
                return
            }
            cursor = range.upperBound
        }
        #expect(html.components(separatedBy: "<svg ").count - 1 >= 7)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
    }

    @Test func pageIsSelfContained() {
        let html = ReportPage.render(Self.content())
        for forbidden in ["<script", "<link", "@import", "url(", "<img", "<iframe", "https://"] {
            #expect(!html.contains(forbidden), "page contains \(forbidden)")
        }
        // The only URL is the SVG namespace, which browsers never fetch.
        #expect(html.components(separatedBy: "http://").count - 1 == html.components(separatedBy: "http://www.w3.org/2000/svg").count - 1)
    }

    @Test func textFromTheDataIsEscaped() {
        let html = ReportPage.render(Self.content(productId: "<script>alert(1)</script>"))
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("winback-&lt;voluntary&gt;"))
    }

    @Test func lastFullMonthCalloutSumsTheChurnRows() {
        let html = ReportPage.render(Self.content(products: 2))
        // Two products, each 96 active at the start of October and 8 churned: 16 ÷ 192.
        let figures = [
            "data-column=\"activeStart\" data-value=\"192\"", "data-column=\"churned\" data-value=\"16\"",
            "data-column=\"churnRate\" data-value=\"0.083333\">8.3 %<",
        ]
        #expect(figures.filter { !html.contains($0) } == [])
    }

    @Test func offersAreSortedByRedemptionsWithTheCSVValues() throws {
        let rows = try Self.tableValues(ReportPage.render(Self.content()), id: "offers-table")
        #expect(rows.map { $0["redemptions"] } == ["55", "40"])
        #expect(rows.map { $0["conversion_rate"] } == ["0.800000", "0.500000"])
        #expect(rows.map { $0["offer_identifier"] } == ["promo.1", "–"])
    }

    @Test func qualityAndCampaignTablesCarryTheCounts() throws {
        let html = ReportPage.render(Self.content())
        let records = try Self.tableValues(html, id: "records-table").reduce(into: [String: String]()) { $0.merge($1) { a, _ in a } }
        #expect(records["read"] == "110" && records["accepted"] == "107" && records["rejected"] == "3")
        #expect(records["duplicates"] == "4" && records["warnings"] == "1" && records["otherProductTypes"] == "2")
        let codes = try Self.tableValues(html, id: "rejects-table")
        #expect(codes.map { $0["code"] } == ["invalid_signature", "malformed_json"])
        let campaigns = try Self.tableValues(html, id: "campaigns-table")
        #expect(
            campaigns == [["campaignId": "winback-&lt;voluntary&gt;", "eligible": "12", "treatment": "10", "holdout": "2", "signed": "10"]])
    }

    @Test func groupsAreNamedByTheirProductsAndThinCohortCellsShowTheirCount() throws {
        var content = Self.content()
        // A second product in the one group: the legend names the group by both, the shared prefix left out.
        let annual = content.churnMonthly.map { row -> ChurnReport.Row in
            var row = row
            row.product.productId = "com.example.annual"
            return row
        }
        content.churnMonthly += annual
        // A cohort of 40: its cells are rates; the sample's cohorts of 10 are drawn grey with their count.
        let monthly = ProductPlan(productId: "com.example.monthly", billingPlanType: nil)
        content.retentionCohorts += [
            .init(cohortMonth: "2026-06", product: monthly, periodIndex: 0, cohortSize: 40, eligible: 40, retained: 40),
            .init(cohortMonth: "2026-06", product: monthly, periodIndex: 1, cohortSize: 40, eligible: 40, retained: 28),
        ]
        let html = ReportPage.render(content)
        #expect(html.contains("annual, monthly"))
        #expect(!html.contains(">group.0<"))
        #expect(html.contains(">n=10<") && html.contains(Heatmap.sparseFill))
        #expect(html.contains(">70<"))
        #expect(ProductGroupNames.sharedDottedPrefix(["com.a.x", "com.a.y", "com.b"]) == "com.")
        #expect(ProductGroupNames.sharedDottedPrefix(["com.a.x"]) == "")
        #expect(ProductGroupNames(["21440001": ["a.one", "a.two", "a.three", "a.four"]]).name(of: "21440001") == "four, one, three +1")
    }

    @Test func largeRunsStayBounded() throws {
        let offers = (0..<500).map { index in
            OfferUsageReport.Row(
                offerType: 2, offerIdentifier: "promo.\(index)", offerDiscountType: "PAY_AS_YOU_GO", offerPeriod: "P1M",
                redemptions: index,
                activeInOffer: 0, completed: 0, converted: 0, refunded: 0)
        }
        let html = ReportPage.render(Self.content(offers: offers, products: 300, groups: 40, cohorts: 60))
        #expect(html.utf8.count < 600_000, "page is \(html.utf8.count) bytes")
        let rows = try Self.tableValues(html, id: "offers-table")
        #expect(rows.count == ReportPage.maximumRows)
        #expect(rows.first?["redemptions"] == "499")
        #expect(html.contains("475 more offers in offer_usage.csv.gz."))
        #expect(html.contains("33 other groups"))
        #expect(html.contains("275 other products"))
        #expect(html.contains("36 earlier cohorts"))
    }

    /// A product sold billed up front and as a monthly-billed commitment gets a table of both at as-of.
    @Test func billingPlansAreListedWhenAProductHasThem() throws {
        var content = Self.content()
        #expect(!ReportPage.render(content).contains("plans-table"))
        let last = content.months.last
        content.churnMonthly += content.churnMonthly.filter { $0.period == last }.map { row in
            var planned = row
            planned.product.billingPlanType = "MONTHLY"
            return planned
        }
        let rows = try Self.tableValues(ReportPage.render(content), id: "plans-table")
        #expect(rows.map { $0["billing_plan_type"] } == ["–", "MONTHLY"])
        #expect(
            rows.map { $0["active_end"] }
                == rows.map { _ in content.churnMonthly.first { $0.period == last }.map { String($0.counts.activeEnd) } ?? "" })
    }

    /// The money section's figures are the sums of the month's `revenue_monthly` and `mrr_monthly` rows;
    /// without a reporting currency the page says how to get one.
    @Test func moneyFiguresSumTheMonthsRows() {
        var content = Self.content()
        #expect(ReportPage.render(content).contains("Set report.currency"))
        content.currency = "USD"
        content.revenueMonthly = [
            .init(
                period: "2026-10", productId: "a", currency: "USD",
                counts: .init(charges: 2, gross: 19980, refunded: 1, refunds: 9990, proceeds: 5000)),
            .init(
                period: "2026-10", productId: "b", currency: "USD",
                counts: .init(charges: 1, gross: 4990, proceeds: 3493, unpriced: 1, unconverted: 1)),
            .init(period: "2026-11", productId: "a", currency: "USD", counts: .init(charges: 1, gross: 9990, proceeds: 6993)),
        ]
        content.mrrMonthly = [
            .init(
                month: "2026-10", product: ProductPlan(productId: "a", billingPlanType: nil), currency: "USD",
                counts: .init(activePaidEnd: 3, mrrEnd: 30000)),
            .init(
                month: "2026-10", product: ProductPlan(productId: "b", billingPlanType: "MONTHLY"), currency: "USD",
                counts: .init(activePaidEnd: 1, mrrEnd: 4990)),
        ]
        content.ltvCohorts = [
            .init(cohortMonth: "2026-09", productId: "a", currency: "USD", monthIndex: 0, cohortSize: 2, eligible: 2, cumulativeNet: 19980),
            .init(cohortMonth: "2026-09", productId: "a", currency: "USD", monthIndex: 1, cohortSize: 2, eligible: 0, cumulativeNet: 0),
        ]
        let html = ReportPage.render(content)
        let figures = [
            ("gross", "24970"), ("refunds", "9990"), ("net", "14980"), ("proceeds", "8493"), ("mrrEnd", "34990"), ("arppu", "8748"),
        ].map { "data-column=\"\($0.0)\" data-value=\"\($0.1)\"" }
        #expect(figures.filter { !html.contains($0) } == [])
        #expect(html.contains(">24.97 USD<") && html.contains(">8.75 USD<"))
        #expect(html.contains("1 transactions without a price and 1 charges or refunds without an exchange rate"))
        #expect(html.contains("Lifetime value per cohort"))
    }

    /// Each campaign's pooled 30-day lift in words: a number with both intervals, the verdict read from the
    /// one safe to read every day ("no measurable effect yet" while it contains zero), "no holdout, no
    /// lift" without a holdout, and a banner for a split alarm.
    @Test func outcomesSayWhatTheLiftMeans() {
        var content = Self.content()
        #expect(ReportPage.render(content).contains("No earlier selection to measure yet"))
        func millionths(_ text: String?) -> Int64? { text.flatMap(Double.init).map { Int64(($0 * 1_000_000).rounded()) } }
        func row(
            _ campaign: String, _ day: String?, _ window: String, _ t: (String, String), _ h: (String, String), _ lift: [String?],
            _ sequence: [String?] = [nil, nil, nil, nil]
        ) -> CampaignOutcomesReport.Row {
            var row = CampaignOutcomesReport.Row(
                campaignId: campaign, selectedOn: day, windowDays: Int64(window) ?? 0, audience: "win_back", offerIdentifier: "wb",
                mature: true, treatment: .init(accounts: Int(t.0) ?? 0, converted: Int(t.1) ?? 0),
                holdout: .init(accounts: Int(h.0) ?? 0, converted: Int(h.1) ?? 0), currency: nil)
            row.lift = millionths(lift[0])
            if let low = millionths(lift[1]), let high = millionths(lift[2]) { row.liftInterval = (low, high) }
            if let low = millionths(sequence[0]), let high = millionths(sequence[1]) { row.sequence = (low, high) }
            row.pAlwaysValid = millionths(sequence[2])
            row.srmP = millionths(sequence[3])
            return row
        }
        let aSequence = ["0.010000", "0.390000", "0.020000", "0.500000"]
        let bSequence = ["-0.400000", "0.600000", "1.000000", "0.000200"]
        content.campaignOutcomes = [
            row("a", nil, "30", ("70", "56"), ("80", "48"), ["0.200000", "0.052427", "0.333874"], aSequence),
            row("a", "2026-10-01", "30", ("70", "56"), ("80", "48"), ["0.200000", "0.052427", "0.333874"], aSequence),
            row("b", nil, "30", ("10", "3"), ("10", "2"), ["0.100000", "-0.254000", "0.430000"], bSequence),
            row("b", "2026-10-01", "30", ("10", "3"), ("10", "2"), ["0.100000", "-0.254000", "0.430000"], bSequence),
            row("c", "2026-10-01", "30", ("12", "4"), ("0", "0"), [nil, nil, nil]),
        ]
        let html = ReportPage.render(content)
        #expect(
            html.contains(
                #"<span data-column="lift" data-value="0.200000">20.0 points (safe to read every day: 1.0 to 39.0; fixed 95 % interval, valid for one pre-planned look only: 5.2 to 33.4)</span>"#
            ), "\(html)")
        #expect(html.contains("a measurable lift"))
        #expect(html.contains("<b>b</b>: <span data-column=\"lift\" data-value=\"0.100000\">"))
        #expect(html.contains("no measurable effect yet"))
        #expect(html.contains("<b>c</b>: no holdout, no lift"))
        #expect(html.contains("id=\"outcomes-table\""))
        // b's split check failed: one banner per alarm row (the pooled row and the cohort's).
        #expect(html.components(separatedBy: "class=\"alert srm-alarm\"").count - 1 == 2)
    }

    @Test func unsignedRunIsCalledOutOnThePage() {
        var content = Self.content()
        content.offersSigned = false
        let html = ReportPage.render(content)
        #expect(html.contains("reports were published but no offers were signed"))
        #expect(html.contains("Offers were not signed in this run."))
    }

    @Test func aRunWithNoDataStillHasEverySection() {
        var content = Self.content()
        content.counts = IngestCounts()
        content.months = []
        content.churnMonthly = []
        content.expirationReasons = []
        content.offerUsage = []
        content.retentionCohorts = []
        content.campaigns = []
        content.subscriptionsByStatus = content.subscriptionsByStatus.map { ($0.status, 0) }
        let html = ReportPage.render(content)
        #expect(ReportPage.sectionIDs.filter { !html.contains("<section id=\"\($0)\">") } == [])
        let notes = [
            "No subscription is expired at as-of.", "No transaction used an offer.", "No cohort has reached its first renewal yet.",
            "No campaigns are configured.", "No record was rejected.",
        ]
        #expect(notes.filter { !html.contains($0) } == [])
        #expect(!html.contains("=\"nan") && !html.contains("=\"inf") && !html.contains("=\"-inf"))
    }

    @Test func renderingIsDeterministic() {
        #expect(ReportPage.render(Self.content(products: 3)) == ReportPage.render(Self.content(products: 3)))
    }

    @Test(arguments: [(12.345, 1, "12.3"), (0.05, 1, "0.1"), (-0.04, 1, "0.0"), (-2.5, 0, "-3"), (99.96, 1, "100.0"), (7, 2, "7.00")])
    func fixedRoundsHalfAwayFromZero(_ value: Double, _ decimals: Int, _ expected: String) {
        #expect(ChartNumber.fixed(value, decimals) == expected)
    }

    @Test(arguments: [(0, "0"), (999, "999"), (1000, "1,000"), (1_234_567, "1,234,567"), (-4200, "-4,200")])
    func countsAreGroupedByThousands(_ value: Int, _ expected: String) {
        #expect(ChartNumber.grouped(value) == expected)
    }

    @Test(arguments: [
        (291.0, true, 300.0, 100.0), (3.0, true, 3.0, 1.0), (0.094, false, 0.1, 0.025), (0.0, true, 4.0, 1.0),
        (18_000.0, true, 20_000.0, 5_000.0),
    ])
    func axesEndOnRoundNumbers(_ peak: Double, _ isCount: Bool, _ maximum: Double, _ step: Double) {
        let axis = ChartNumber.axis(maximum: peak, isCount: isCount)
        #expect(axis.maximum >= peak)
        #expect(abs(axis.maximum - maximum) < 1e-9 && abs(axis.step - step) < 1e-9, "axis \(axis) for \(peak)")
    }

    @Test func heatmapRampRunsLightToDark() {
        #expect(ChartPalette.ramp(0) == "#f7fbff")
        #expect(ChartPalette.ramp(1) == "#08306b")
        #expect(ChartPalette.ramp(2) == "#08306b")
    }
}
