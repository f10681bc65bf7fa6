import Foundation
import Testing
import WinbackTestSupport

/// A run knows how recent its data is: the sample's newest record is signed 2026-11-19.
@Suite struct FreshnessRunTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var asOf: String
        var isStale: Bool
        var testDescription: String { "as-of \(asOf)" }
    }

    /// 2026-11-21 is two days after the data (report.maxDataLagDays 2, the default): fresh; 2026-11-22 is stale.
    @Test(arguments: [
        Case(asOf: "2026-11-19", isStale: false), Case(asOf: "2026-11-21", isStale: false), Case(asOf: "2026-11-22", isStale: true),
    ])
    func staleRunWarnsAndSaysSoInTheSummaryAndThePage(_ example: Case) throws {
        let config = try SampleConfig.copy("freshness-\(example.asOf)") { $0 }
        let result = try CommandRunner.run(["run", "--config", config.path, "--as-of", example.asOf])
        #expect(result.exitCode == 0)
        let summary = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary.contains(#""dataThrough":"2026-11-19","stale":\#(example.isStale)"#), "\(summary)")
        #expect(result.stderr.contains("warning: stale data: the newest record is signed 2026-11-19") == example.isStale)
        let page = config.deletingLastPathComponent().appendingPathComponent("out/dt=\(example.asOf)/report.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains(#"id="stale" data-data-through="2026-11-19" data-as-of="\#(example.asOf)""#) == example.isStale)
    }
}
