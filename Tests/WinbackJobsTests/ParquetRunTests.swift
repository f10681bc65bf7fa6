import Foundation
import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackTestSupport

@testable import WinbackJobs

/// `report.formats` (docs/analysts.md): Parquet beside the CSV, or instead of it, listed in the manifest, with
/// `views.sql`; a bad value is a config error naming the key.
@Suite(.serialized) struct ParquetRunTests {
    @Test(arguments: [#"["csv", "parquet"]"#, #"["parquet"]"#])
    func theTablesArePublishedInTheConfiguredFormats(_ formats: String) async throws {
        let config = try SampleConfig.copy("parquet-\(formats.count)") {
            $0.replacingOccurrences(of: #""maxRejectRate": 0.01,"#, with: #""maxRejectRate": 0.01, "formats": \#(formats),"#)
        }
        let output = config.deletingLastPathComponent().appendingPathComponent("out")
        let outcome = try await RunGoldenTests.run(into: output, usesStore: false, configPath: config.path)
        #expect(outcome.exitCode == 0)
        let day = output.appendingPathComponent("dt=\(RunGoldenTests.asOf)")
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: day.path))
        let tables = [
            "campaign_outcomes", "churn_daily", "churn_monthly", "eligible_accounts", "events_daily", "expiration_reasons", "ltv_cohorts",
            "mrr_monthly", "offer_usage", "refund_requests", "renewal_outlook", "retention_cohorts", "revenue_daily", "revenue_monthly",
            "subscriptions",
        ]
        let keepsCSV = formats.contains("csv")
        for table in tables {
            #expect(names.contains(table + ".parquet"), "\(table)")
            #expect(names.contains(table + ".csv.gz") == keepsCSV, "\(table)")
        }
        #expect(names.contains("views.sql") && names.contains("rejects.ndjson.gz") && names.contains("report.html"))
        let manifest = try JSONParser.parse([UInt8](try Data(contentsOf: day.appendingPathComponent("_manifest.json"))))
        guard case .array(let outputs)? = manifest["outputs"] else {
            Issue.record("no outputs in the manifest")
            return
        }
        let listed = Set(outputs.compactMap { $0.value["name"]?.stringValue })
        #expect(listed == names.subtracting(["_SUCCESS", "_manifest.json"]))
        // Each table's Parquet file is listed right after its CSV: the order a run writes them in, the subscriptions'
        // file included (written beside the campaigns, after the other tables).
        let order = outputs.compactMap { $0.value["name"]?.stringValue }
        for table in tables where keepsCSV {
            let next = order.firstIndex(of: table + ".csv.gz").map { $0 + 1 }.flatMap { order.indices.contains($0) ? order[$0] : nil }
            #expect(next == table + ".parquet", "\(table)")
        }
        let subscriptions = outputs.first { $0.value["name"] == .string("subscriptions.parquet") }
        #expect(subscriptions?.value["rows"] == .integer(500))
        let views = try String(contentsOf: day.appendingPathComponent("views.sql"), encoding: .utf8)
        #expect(
            views.contains(
                "CREATE OR REPLACE VIEW subscriptions AS SELECT * FROM read_parquet('\(output.path)/dt=*/subscriptions.parquet', hive_partitioning = true);"
            ))
        let bytes = [UInt8](try Data(contentsOf: day.appendingPathComponent("subscriptions.parquet")))
        #expect(bytes.prefix(4).elementsEqual(Array("PAR1".utf8)) && bytes.suffix(4).elementsEqual(Array("PAR1".utf8)))
    }

    @Test(arguments: [#"[]"#, #"["xlsx"]"#, #"["csv", "csv"]"#, #""parquet""#])
    func aBadFormatsValueNamesTheKey(_ formats: String) throws {
        let config = try SampleConfig.copy("parquet-bad") {
            $0.replacingOccurrences(of: #""maxRejectRate": 0.01,"#, with: #""maxRejectRate": 0.01, "formats": \#(formats),"#)
        }
        let result = try CommandRunner.run(["verify", "--config", config.path, "--quiet"])
        #expect(result.exitCode == 64)
        #expect(result.firstErrorLine.contains("report.formats"), "\(result.stderr)")
    }

    /// A rate travels as its millionths: the CSV text and the Parquet DECIMAL(18, 6) both come from them.
    @Test(arguments: [
        (1, 3, Int64(333_333), "0.333333"), (2, 3, 666_667, "0.666667"), (-1, 1_000_000, -1, "-0.000001"), (3, 2, 1_500_000, "1.500000"),
        (-3, 2, -1_500_000, "-1.500000"), (0, 7, 0, "0.000000"),
    ])
    func ratesAreMillionths(_ numerator: Int, _ denominator: Int, _ millionths: Int64, _ text: String) {
        #expect(RateFormat.millionths(numerator, denominator) == millionths)
        #expect(RateFormat.text(millionths: millionths) == text)
        #expect(RateFormat.format(numerator, denominator) == text)
        #expect(RateFormat.millionths(1, 0) == nil)
    }
}
