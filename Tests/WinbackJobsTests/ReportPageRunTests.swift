import Foundation
import Testing
import WinbackAppStore
import WinbackReportPage
import WinbackTestSupport

/// `report.html` of the sample run: every section, and the numbers of the CSV and summary files.
@Suite(.serialized) struct ReportPageRunTests {
    /// A published report as dictionaries by column name (plain comma split: the sample has no quoted fields).
    static func csvRows(_ url: URL) throws -> [[String: String]] {
        let lines = try RunGoldenTests.comparable(url).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let header = try #require(lines.first)
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    static func integer(_ value: JSONValue?) -> String? {
        if case .integer(let number)? = value { return String(number) }
        return nil
    }

    @Test func samplePageShowsTheNumbersOfTheReportFiles() async throws {
        let output = try CommandRunner.temporaryDirectory("page")
        _ = try await RunGoldenTests.run(into: output)
        let published = output.appendingPathComponent("dt=\(RunGoldenTests.asOf)")
        let html = try String(contentsOf: published.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(html.utf8.count < 2_000_000)
        #expect(ReportPage.sectionIDs.filter { !html.contains("<section id=\"\($0)\">") } == [])
        let summary = try JSONParser.parse(try RunGoldenTests.comparable(published.appendingPathComponent("summary.json.gz")))

        // Offers: the CSV rows, by redemptions (descending, ties in file order), with the file's values.
        let offers = try Self.csvRows(published.appendingPathComponent("offer_usage.csv.gz"))
        let expectedOffers = offers.enumerated().sorted { a, b in
            let (x, y) = (Int(a.element["redemptions"] ?? "") ?? 0, Int(b.element["redemptions"] ?? "") ?? 0)
            return x != y ? x > y : a.offset < b.offset
        }.map(\.element).prefix(25)
        let pageOffers = try #require(ReportPageReader.table(html, id: "offers-table"))
        #expect(pageOffers.count == expectedOffers.count && !pageOffers.isEmpty)
        for (page, file) in zip(pageOffers, expectedOffers) {
            for column in ["redemptions", "active_in_offer", "completed", "converted", "conversion_rate", "refunded", "offer_period"] {
                #expect(page[column] == file[column], "offer \(file["offer_identifier"] ?? "") column \(column)")
            }
        }

        // Churn: per month, the sums of churn_monthly's rows; the callout equals the summary's lastFullMonth.
        let churn = try Self.csvRows(published.appendingPathComponent("churn_monthly.csv.gz"))
        let pageChurn = try #require(ReportPageReader.table(html, id: "churn-table"))
        #expect(pageChurn.count == 12)
        for row in pageChurn {
            let month = churn.filter { $0["month"] == row["month"] }
            for column in ["active_start", "active_end", "new", "reactivated", "churned"] {
                #expect(row[column] == String(month.reduce(0) { $0 + (Int($1[column] ?? "") ?? 0) }), "\(row["month"] ?? "") \(column)")
            }
        }
        let last = try #require(summary["lastFullMonth"])
        #expect(ReportPageReader.figure(html, section: "churn", column: "activeStart") == Self.integer(last["activeStart"]))
        #expect(ReportPageReader.figure(html, section: "churn", column: "churned") == Self.integer(last["churned"]))
        guard case .double(let rate)? = last["churnRate"] else {
            Issue.record("summary has no churn rate")
            return
        }
        #expect(ReportPageReader.figure(html, section: "churn", column: "churnRate").flatMap(Double.init) == rate)

        // Statuses, campaigns, data quality: the summary's counts.
        let statuses = try #require(ReportPageReader.table(html, id: "status-table"))
        for row in statuses {
            let status = try #require(row["status"])
            #expect(row[status] == Self.integer(summary["subscriptionsByStatus"]?[status]), "status \(status)")
        }
        let campaigns = try #require(ReportPageReader.table(html, id: "campaigns-table"))
        #expect(campaigns.count == summary["offersPerCampaign"]?.objectMembers?.count)
        for row in campaigns {
            let counts = summary["offersPerCampaign"]?[row["campaignId"] ?? ""]
            for column in ["eligible", "treatment", "holdout", "signed"] {
                #expect(row[column] == Self.integer(counts?[column]), "\(row["campaignId"] ?? "") \(column)")
            }
        }
        let records = (ReportPageReader.table(html, id: "records-table") ?? []).reduce(into: [String: String]()) {
            $0.merge($1) { a, _ in a }
        }
        for column in ["read", "accepted", "rejected", "duplicates", "warnings", "future", "otherProductTypes"] {
            #expect(records[column] == Self.integer(summary["records"]?[column]), "records \(column)")
        }
        let codes = try #require(ReportPageReader.table(html, id: "rejects-table"))
        #expect(codes.count == summary["records"]?["rejectedByCode"]?.objectMembers?.count)
        for row in codes {
            let code = try #require(row["code"])
            #expect(row[code] == Self.integer(summary["records"]?["rejectedByCode"]?[code]), "code \(code)")
        }

        // The manifest lists the page like every other output.
        let manifest = try JSONParser.parse(Array(try Data(contentsOf: published.appendingPathComponent("_manifest.json"))))
        guard case .array(let outputs)? = manifest["outputs"] else {
            Issue.record("manifest has no outputs")
            return
        }
        #expect(outputs.contains { $0.value["name"] == .string("report.html") })
    }
}
