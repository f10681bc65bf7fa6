import Foundation
import WinbackAppStore
import WinbackIO
import WinbackIngest

/// `winback verify`: ingest and verify only, writing no files (docs/inputs.md): each rejection as one JSON
/// line on stdout, then the one-line JSON summary; human-readable counts on stderr.
public enum VerifyJob {
    /// What the command prints and exits with.
    public struct Outcome: Sendable, CommandSummary {
        /// The ingest's counts, inputs and deduplicated store.
        public var result: IngestResult
        /// 0, or 65 when the reject rate exceeded `report.maxRejectRate`.
        public var exitCode: Int32
        /// The summary for stdout.
        public var summary: JSONValue
        /// The human-readable counts for stderr.
        public var report: String
    }

    /// Ingests and verifies the config's inputs; `writeLine` gets each rejection's JSON line in input order.
    public static func run(configPath: String, isQuiet: Bool, isVerbose: Bool = false, writeLine: (String) -> Void) async throws -> Outcome
    {
        let loaded = try LoadedConfig.load(path: configPath)
        // The whole config is checked as `winback run` checks it: campaigns and the money settings too.
        var warnings: [String] = []
        _ = try loaded.offerCodePools(try loaded.campaigns(warnings: &warnings))
        _ = try loaded.moneyContext(calendar: try JobDay.calendar(config: loaded.config, asOf: nil, now: Date()))
        let (files, inputWarnings) = try InputDiscovery.discover(loaded)
        let result = try await IngestStage.run(loaded.ingestSettings, files: files, inputWarnings: inputWarnings, isQuiet: isQuiet) {
            rejection, _ in
            writeLine(rejection.jsonLine)
            if isVerbose { Diagnostics.logger.debug("\(rejection.diagnostic)") }
        }
        let counts = result.counts
        let isOverThreshold = counts.rejectRate > loaded.config.report.maxRejectRate
        let summary = JSONText.object([
            ("command", .string("verify")),
            ("records", counts.summaryJSON()),
            ("rejectRate", .double(counts.rejectRate)),
            ("maxRejectRate", .double(loaded.config.report.maxRejectRate)),
            ("inputs", .integer(Int64(result.inputs.count))),
            ("chainValidations", .integer(Int64(result.chainValidations))),
            ("exitCode", .integer(Int64(isOverThreshold ? ExitStatus.dataError : ExitStatus.success))),
        ])
        return Outcome(
            result: result, exitCode: isOverThreshold ? ExitStatus.dataError : ExitStatus.success,
            summary: summary,
            report: humanReport(result, maxRejectRate: loaded.config.report.maxRejectRate))
    }

    /// The stderr report: inputs, counts, rejects by code, warnings.
    static func humanReport(_ result: IngestResult, maxRejectRate: Double) -> String {
        let counts = result.counts
        var lines = result.inputWarnings.map { "warning: \($0)" }
        lines.append("inputs: \(result.inputs.count) files, \(result.inputs.reduce(0) { $0 + $1.bytes }) bytes")
        lines.append(
            "read: \(counts.read)  accepted: \(counts.accepted)  rejected: \(counts.rejected)  duplicates: \(counts.duplicates)  warnings: \(counts.warnings)"
        )
        for (code, count) in counts.rejectedByCode.sorted(by: { $0.key < $1.key }) {
            lines.append("  rejected \(code.rawValue): \(count)")
        }
        let rate = String(format: "%.6f", counts.rejectRate)
        let verdict =
            counts.rejectRate > maxRejectRate ? "EXCEEDS maxRejectRate \(maxRejectRate) (exit 65)" : "within maxRejectRate \(maxRejectRate)"
        lines.append("reject rate: \(rate), \(verdict)")
        lines.append("chain validations: \(result.chainValidations)")
        return lines.joined(separator: "\n") + "\n"
    }
}
