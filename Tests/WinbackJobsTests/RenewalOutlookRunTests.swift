import Foundation
import Testing
import WinbackAppStore
import WinbackJobs
import WinbackTestSupport

/// The renewal outlook of a whole run (docs/renewal-outlook.md) on the sample day: a row for exactly the
/// subscriptions that can renew, the summary's totals from those rows, the backtest, and campaign rules that
/// select only what the rows allow.
@Suite struct RenewalOutlookRunTests {
    /// A CSV table's rows as header → value maps.
    static func table(_ day: URL, _ name: String) throws -> [[String: String]] {
        let text = try Gunzip.text(Array(try Data(contentsOf: day.appendingPathComponent(name))))
        let lines = text.split(separator: "\n").map { String($0) }
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(uniqueKeysWithValues: zip(header, cells))
        }
    }

    static func run(_ name: String, retentionRule: String) async throws -> URL {
        let config = try SampleConfig.copy(name) {
            $0.replacingOccurrences(of: #""maxRenewalProbability": 0.5"#, with: retentionRule)
        }
        let output = config.deletingLastPathComponent().appendingPathComponent("out")
        let outcome = try await RunGoldenTests.run(into: output, usesStore: false, configPath: config.path)
        #expect(outcome.exitCode == 0)
        return output.appendingPathComponent("dt=\(RunGoldenTests.asOf)")
    }

    @Test func everyRenewableSubscriptionHasARowAndTheSummaryAddsThemUp() async throws {
        let day = try await Self.run("outlook-rows", retentionRule: #""maxRenewalProbability": 0.5"#)
        let subscriptions = try Self.table(day, "subscriptions.csv.gz")
        let renewable = subscriptions.filter { ["active", "billing_retry", "billing_grace_period"].contains($0["status"] ?? "") }
        let rows = try Self.table(day, "renewal_outlook.csv.gz")
        #expect(rows.map { $0["original_transaction_id"] ?? "" } == renewable.map { $0["original_transaction_id"] ?? "" })
        #expect(rows.count > 300)
        for row in rows {
            let probability = try #require(Double(row["renewal_probability"] ?? ""))
            #expect((0...1).contains(probability))
            let band = probability < 0.5 ? "high" : probability < 0.8 ? "medium" : "low"
            #expect(row["risk_band"] == band)
            if row["auto_renew"] == "false" { #expect(probability < 0.5 && row["main_factor"] == "auto_renew_off", "\(row)") }
        }
        let summary = try JSONParser.parse(try Gunzip.bytes(Array(try Data(contentsOf: day.appendingPathComponent("summary.json.gz")))))
        let outlook = try #require(summary["renewalOutlook"])
        #expect(outlook["subscriptions"] == .integer(Int64(rows.count)))
        let expected = rows.reduce(0.0) { $0 + (Double($1["renewal_probability"] ?? "") ?? 0) }
        guard case .double(let reported)? = outlook["expectedRenewals"] else { throw FixtureError(description: "no expectedRenewals") }
        #expect(abs(reported - expected) < 0.01)
        let proceeds = rows.reduce(Int64(0)) { $0 + (Int64($1["expected_proceeds_12m"] ?? "") ?? 0) }
        #expect(outlook["expectedProceeds12m"] == .integer(proceeds))
        // The backtest scored the sample's renewals of late October to mid-November, and beat the product average.
        let backtest = try #require(outlook["backtest"])
        guard case .integer(let scored)? = backtest["scored"], case .double(let auc)? = backtest["auc"],
            case .double(let baselineAuc)? = backtest["baselineAuc"], case .array(let bins)? = backtest["calibration"]
        else { throw FixtureError(description: "no backtest: \(backtest)") }
        #expect(scored > 20 && bins.count == 10)
        #expect(auc > baselineAuc, "AUC \(auc) against the baseline's \(baselineAuc)")
        let binned = bins.reduce(Int64(0)) { sum, bin in
            guard case .integer(let count)? = bin.value["count"] else { return sum }
            return sum + count
        }
        #expect(binned == scored)
        let page = try String(contentsOf: day.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(page.contains("<section id=\"outlook\">") && page.contains("Calibration"))
    }

    /// `maxRenewalProbability` keeps exactly the accounts whose subscription's row allows them: 0 keeps none,
    /// 1 keeps the unrestricted selection, 0.5 (the sample's) only rows at or below it.
    @Test func theOutlookRulesSelectOnlyWhatTheRowsAllow() async throws {
        func selected(_ day: URL) throws -> [String] {
            try Self.table(day, "eligible_accounts.csv.gz").filter { $0["campaign_id"] == "retention-auto-renew-off" }
                .map { $0["original_transaction_id"] ?? "" }
        }
        let open = try selected(try await Self.run("outlook-rule-open", retentionRule: #""maxRenewalProbability": 1"#))
        let none = try selected(try await Self.run("outlook-rule-none", retentionRule: #""maxRenewalProbability": 0"#))
        let sampleDay = try await Self.run("outlook-rule-sample", retentionRule: #""maxRenewalProbability": 0.5"#)
        let sample = try selected(sampleDay)
        #expect(!open.isEmpty && none.isEmpty)
        let rows = Dictionary(
            uniqueKeysWithValues: try Self.table(sampleDay, "renewal_outlook.csv.gz").map {
                ($0["original_transaction_id"] ?? "", Double($0["renewal_probability"] ?? "") ?? 2)
            })
        #expect(sample == open.filter { (rows[$0] ?? 2) <= 0.5 })
        let proceeds = try selected(try await Self.run("outlook-rule-proceeds", retentionRule: #""minExpectedProceeds12m": 1000000"#))
        #expect(proceeds.isEmpty)
    }
}
