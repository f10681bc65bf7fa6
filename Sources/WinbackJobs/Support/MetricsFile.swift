import CoreMetrics
import Foundation
import Prometheus

/// `--metrics-file PATH` (docs/operations.md): what a command counted, in Prometheus's text format, for
/// node_exporter's textfile collector, written atomically when the command ends, whatever its exit code.
///
/// The jobs count through swift-metrics (`Counter`, `Gauge`; a no-op unless a command asked for the file);
/// ``start(path:command:)`` points swift-metrics at a Prometheus registry (swift-prometheus) whose every series
/// carries `command="<command>"`, so several commands' files sit side by side in one collector directory.
/// The file adds `winback_exit_code`, `winback_last_run_timestamp_seconds` and
/// `winback_last_success_timestamp_seconds` (this run's when it exited 0, else the previous file's, so an alert
/// on `time() - winback_last_success_timestamp_seconds` fires on a missed or failed night).
public final class MetricsFile: Sendable {
    /// The file written.
    public let path: String
    /// The command, the `command` label of every series.
    public let command: String
    private let registry: PrometheusCollectorRegistry

    private init(path: String, command: String, registry: PrometheusCollectorRegistry) {
        self.path = path
        self.command = command
        self.registry = registry
    }

    /// Points swift-metrics (once per process: the command line runs one command) at a new registry.
    public static func start(path: String, command: String) -> MetricsFile {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.nameAndLabelSanitizer = { name, labels in (name, [("command", command)] + labels) }
        MetricsSystem.bootstrap(factory)
        return MetricsFile(path: path, command: command, registry: registry)
    }

    /// Writes the file: the counts so far and the run's `exitCode`, ending at `now`. A file that cannot be
    /// written is 74 (the command's own outputs are already published by then).
    public func write(exitCode: Int32, now: Date) throws(JobError) {
        let seconds = now.timeIntervalSince1970.rounded(.down)
        let labels = [("command", command)]
        func gauge(_ name: String, _ unit: String, _ help: String) -> Prometheus.Gauge {
            registry.makeGauge(
                descriptor: MetricNameDescriptor(namespace: "winback", metricName: name, unitName: unit, helpText: help), labels: labels)
        }
        gauge("exit_code", "", "The exit code of the command's last run (0: success).").set(to: Double(exitCode))
        gauge("last_run_timestamp", "seconds", "When the command's last run ended, seconds since the epoch.").set(to: seconds)
        if let success = exitCode == ExitStatus.success ? seconds : Self.lastSuccess(inFileAt: path, command: command) {
            gauge("last_success_timestamp", "seconds", "When the command last ended with exit code 0, seconds since the epoch.")
                .set(to: success)
        }
        try FileSystem.writeAtomically(registry.emitToBuffer(), to: path)
    }

    /// The previous file's `winback_last_success_timestamp_seconds` for `command`, if it has one: the one value a
    /// failed run carries over (the file is the only memory a cron job keeps between nights).
    static func lastSuccess(inFileAt path: String, command: String) -> Double? {
        guard let bytes = FileManager.default.contents(atPath: path), let text = String(data: bytes, encoding: .utf8) else { return nil }
        let series = "winback_last_success_timestamp_seconds{command=\"\(command)\"} "
        for line in text.split(separator: "\n") where line.hasPrefix(series) {
            return Double(line.dropFirst(series.count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
