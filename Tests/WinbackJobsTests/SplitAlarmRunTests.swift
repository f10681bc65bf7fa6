import Foundation
import GRDB
import Testing
import WinbackAppStore
import WinbackTestSupport

/// A ledger whose holdout rows of one cohort were partly deleted (docs/campaigns.md): that cohort's split check
/// fails — in `summary.json.gz`, on stderr and on the page — and no other campaign's does.
@Suite(.serialized) struct SplitAlarmRunTests {
    @Test func deletedHoldoutRowsRaiseAnAlarmForThatCohortOnly() async throws {
        // The config's own ledger (`state/ledger.sqlite` beside it), so the command line run below reads it.
        let config = try SampleConfig.copy("split-alarm-config")
        let output = config.deletingLastPathComponent().appendingPathComponent("out")
        let ledger = config.deletingLastPathComponent().appendingPathComponent("state/ledger.sqlite")
        for day in RunGoldenTests.historyDays {
            #expect(try await RunGoldenTests.run(into: output, ledger: ledger, asOf: day, usesStore: false).exitCode == 0)
        }
        let queue = try DatabaseQueue(path: ledger.path)
        let deleted = try await queue.write { db in
            try db.execute(
                sql: """
                    DELETE FROM selections WHERE rowid IN (SELECT rowid FROM selections WHERE campaign_id = 'winback-voluntary'
                      AND as_of = '2026-10-01' AND variant = 'holdout' ORDER BY account_key LIMIT 20)
                    """)
            return db.changesCount
        }
        try queue.close()
        #expect(deleted == 20)
        let result = try CommandRunner.run([
            "run", "--config", config.path, "--as-of", RunGoldenTests.asOf, "--out", output.appendingPathComponent("after").path,
            "--no-store",
        ])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: split alarm: campaign 'winback-voluntary'") }
        let day = output.appendingPathComponent("after/dt=\(RunGoldenTests.asOf)")
        let summary = try JSONParser.parse(try Gunzip.text(Array(try Data(contentsOf: day.appendingPathComponent("summary.json.gz")))))
        guard case .array(let alarms)? = summary["srmAlarms"] else {
            Issue.record("no srmAlarms in the summary")
            return
        }
        #expect(!alarms.isEmpty)
        for alarm in alarms {
            #expect(alarm.value["campaignId"] == .string("winback-voluntary"))
            #expect([.string("2026-10-01"), .null].contains(alarm.value["selectedOn"]), "\(alarm.value)")
        }
        #expect(alarms.contains { $0.value["selectedOn"] == .string("2026-10-01") && $0.value["windowDays"] == .integer(30) })
        #expect(warnings.count == alarms.count, "\(result.stderr)")
        #expect(!result.stderr.contains("split alarm: campaign 'retention"), "\(result.stderr)")
        let page = try String(contentsOf: day.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(page.components(separatedBy: "class=\"alert srm-alarm\"").count - 1 == alarms.count)
    }
}
