import CoreMetrics
import WinbackAppStore
import WinbackJobs

/// What `winback sync` did, for its summary line.
public struct SyncOutcome: Sendable, CommandSummary {
    /// First and last day of the range, `YYYY-MM-DD`.
    public var from: String
    /// Last day of the range, inclusive.
    public var to: String
    /// `<api.directory>/notifications`, resolved.
    public var directory: String
    /// Days fetched and written.
    public var daysWritten = 0
    /// Days skipped because their file existed (no `--refresh`).
    public var daysSkipped = 0
    /// Notifications written, over all days.
    public var notifications = 0
    /// Requests sent, retries included.
    public var requests = 0
    /// Requests that were retries.
    public var retries = 0

    /// The summary on stdout.
    public var summary: JSONValue {
        JSONText.object([
            ("command", .string("sync")), ("exitCode", .integer(0)), ("from", .string(from)), ("to", .string(to)),
            ("directory", .string(directory)), ("daysWritten", .integer(Int64(daysWritten))),
            ("daysSkipped", .integer(Int64(daysSkipped))), ("notifications", .integer(Int64(notifications))),
            ("requests", .integer(Int64(requests))), ("retries", .integer(Int64(retries))),
        ])
    }

    /// Counts this run in swift-metrics (`--metrics-file`).
    func emitMetrics() {
        Counter(label: "winback_sync_days_total", dimensions: [("outcome", "written")]).increment(by: daysWritten)
        Counter(label: "winback_sync_days_total", dimensions: [("outcome", "skipped")]).increment(by: daysSkipped)
        Counter(label: "winback_sync_notifications_total").increment(by: notifications)
        Counter(label: "winback_sync_requests_total").increment(by: requests)
        Counter(label: "winback_sync_retries_total").increment(by: retries)
    }
}
