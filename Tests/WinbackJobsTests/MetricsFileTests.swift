import Foundation
import Testing
import WinbackAppStore
import WinbackTestSupport

/// `--metrics-file`: the counts of the summary line in Prometheus text, written after every run, the last
/// success carried over a failed one.
@Suite struct MetricsFileTests {
    /// The file's samples: `name{labels}` → value (comments skipped).
    static func samples(_ url: URL) throws -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            samples[String(parts[0])] = Double(parts[1])
        }
        return samples
    }

    @Test func aRunWritesTheSummarysCountsAndAFailedRunKeepsTheLastSuccess() throws {
        let config = try SampleConfig.copy("metrics-file")
        let file = config.deletingLastPathComponent().appendingPathComponent("winback-run.prom")
        let result = try CommandRunner.run(
            ["run", "--config", config.path, "--as-of", "2026-11-19", "--quiet", "--no-store", "--metrics-file", file.path])
        #expect(result.exitCode == 0)
        let summary = try JSONParser.parse(String(result.stdout.split(separator: "\n").last ?? ""))
        let samples = try Self.samples(file)
        for (outcome, key) in [("read", "read"), ("accepted", "accepted"), ("rejected", "rejected"), ("duplicate", "duplicates")] {
            guard case .integer(let count)? = summary["records"]?[key] else {
                Issue.record("summary lacks records.\(key)")
                continue
            }
            #expect(samples[#"winback_records_total{command="run",outcome="\#(outcome)"}"#] == Double(count))
        }
        #expect(samples[#"winback_exit_code{command="run"}"#] == 0)
        let success = try #require(samples[#"winback_last_success_timestamp_seconds{command="run"}"#])
        #expect(samples[#"winback_last_run_timestamp_seconds{command="run"}"#] == success)
        for phase in ["ingest", "model", "reports", "sign"] {
            #expect(samples[#"winback_phase_duration_seconds{command="run",phase="\#(phase)"}"#] != nil, "phase \(phase)")
        }
        #expect(samples[#"winback_offers_total{command="run",campaign="winback-voluntary",variant="treatment"}"#] ?? 0 > 0)
        let temporaries = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
            .filter { $0.hasSuffix(".tmp") }
        #expect(temporaries.isEmpty)

        // A failed night: the exit code says so, the last success stays the earlier one.
        Thread.sleep(forTimeInterval: 1.1)
        let failed = try CommandRunner.run([
            "run", "--config", config.path, "--as-of", "2026-02-30", "--quiet", "--metrics-file", file.path,
        ])
        #expect(failed.exitCode == 64)
        let after = try Self.samples(file)
        #expect(after[#"winback_exit_code{command="run"}"#] == 64)
        #expect(after[#"winback_last_success_timestamp_seconds{command="run"}"#] == success)
        #expect(after[#"winback_last_run_timestamp_seconds{command="run"}"#] ?? 0 > success)
    }

    @Test func aFileThatCannotBeWrittenIs74() throws {
        let config = try SampleConfig.copy("metrics-file-unwritable")
        let result = try CommandRunner.run(
            ["run", "--config", config.path, "--as-of", "2026-11-19", "--quiet", "--no-store", "--metrics-file", "/nonexistent/dir/x.prom"])
        #expect(result.exitCode == 74)
        #expect(result.firstErrorLine.contains("/nonexistent/dir/"))
    }
}
