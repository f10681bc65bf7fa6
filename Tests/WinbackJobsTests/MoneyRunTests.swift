import Foundation
import Testing
import WinbackAppStore
import WinbackTestSupport

/// The money settings as a user runs them: the rates file is read next to the config, a bad row stops the
/// run naming `file:line`, and the published summary agrees with `revenue_monthly` and `mrr_monthly`.
@Suite struct MoneyRunTests {
    static func config(_ name: String, rates: String?) throws -> URL {
        try SampleConfig.copy(name) { text in
            guard let rates else { return text }
            let directory = try? CommandRunner.temporaryDirectory(name + "-rates")
            let file = directory?.appendingPathComponent("rates.csv")
            if let file { try? rates.write(to: file, atomically: true, encoding: .utf8) }
            return text.replacingOccurrences(
                of: Fixtures.packageRoot.appendingPathComponent("sample-data").path + "/exchange-rates.csv", with: file?.path ?? "")
        }
    }

    @Test func aMalformedRateRowExits64NamingFileAndLine() throws {
        let config = try Self.config("bad-rates", rates: "date,currency,rate\n2026-01-01,EUR,1.08\n2026-02-01,EUR,one\n")
        let result = try CommandRunner.run(["run", "--config", config.path, "--as-of", "2026-11-19"])
        #expect(result.exitCode == 64)
        #expect(result.firstErrorLine.contains("report.exchangeRates:"), "\(result.stderr)")
        #expect(result.firstErrorLine.contains("rates.csv:3: expected a positive decimal rate"), "\(result.stderr)")
    }

    @Test func aMissingRatesFileExits74() throws {
        let config = try SampleConfig.copy("no-rates") { $0.replacingOccurrences(of: "exchange-rates.csv", with: "missing-rates.csv") }
        let result = try CommandRunner.run(["run", "--config", config.path, "--as-of", "2026-11-19"])
        #expect(result.exitCode == 74)
        #expect(result.firstErrorLine.contains("missing-rates.csv: no such file"), "\(result.stderr)")
    }

    @Test func theSummaryAddsUpTheMoneyTables() throws {
        let config = try SampleConfig.copy("money-summary")
        let result = try CommandRunner.run(["run", "--config", config.path, "--as-of", "2026-11-19", "--quiet"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let day = config.deletingLastPathComponent().appendingPathComponent("out/dt=2026-11-19")
        func csv(_ name: String) throws -> [[String: String]] {
            let lines = try Gunzip.text(Array(try Data(contentsOf: day.appendingPathComponent(name)))).split(separator: "\n")
            let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) ?? []
            return lines.dropFirst().map { line in
                Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
            }
        }
        let revenue = try csv("revenue_monthly.csv.gz").filter { $0["month"] == "2026-10" }
        let mrr = try csv("mrr_monthly.csv.gz").filter { $0["month"] == "2026-10" }
        func total(_ rows: [[String: String]], _ column: String) -> Int64 { rows.reduce(0) { $0 + (Int64($1[column] ?? "") ?? 0) } }
        let summary = try JSONParser.parse(
            try Gunzip.text(Array(try Data(contentsOf: day.appendingPathComponent("summary.json.gz")))))
        let money = summary["money"]
        #expect(money?["currency"] == .string("USD"))
        for (key, column) in [("gross", "gross"), ("refunds", "refunds"), ("net", "net"), ("proceeds", "proceeds")] {
            #expect(money?["lastFullMonth"]?[key] == .integer(total(revenue, column)), "\(key)")
        }
        #expect(money?["lastFullMonth"]?["mrrEnd"] == .integer(total(mrr, "mrr_end")))
        #expect(revenue.allSatisfy { $0["currency"] == "USD" } && !revenue.isEmpty)
        // CAD's rates start in 2025-03: the earlier CAD charges are counted, not summed.
        #expect(try csv("revenue_monthly.csv.gz").contains { $0["month"]?.hasPrefix("2025-0") == true && $0["unconverted"] != "0" })
    }
}
