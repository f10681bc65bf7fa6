import CoreMetrics
import WinbackAppStore
import WinbackJobs

/// What `winback sync --history/--statuses` did, for its summary line (docs/sync.md).
public struct HistorySyncOutcome: Sendable, CommandSummary {
    /// `history`, `statuses` or `history+statuses`.
    public var mode: String
    /// `<api.directory>`, resolved.
    public var directory: String
    /// Ids asked for (the file's and the notifications', each once).
    public var ids = 0
    /// Ids skipped because the resumed pass had already finished them.
    public var idsResumed = 0
    /// Transactions written to new history parts (never one already written).
    public var transactions = 0
    /// History parts written.
    public var historyFiles = 0
    /// Statuses files written.
    public var statuses = 0
    /// Requests sent, retries included.
    public var requests = 0
    /// Requests that were retries.
    public var retries = 0
    /// Ids Apple answered 404 for (unknown, or of the other environment): warned about and skipped.
    public var notFound = 0

    /// The summary on stdout.
    public var summary: JSONValue {
        JSONText.object([
            ("command", .string("sync")), ("exitCode", .integer(0)), ("mode", .string(mode)), ("directory", .string(directory)),
            ("ids", .integer(Int64(ids))), ("idsResumed", .integer(Int64(idsResumed))),
            ("transactions", .integer(Int64(transactions))), ("historyFiles", .integer(Int64(historyFiles))),
            ("statuses", .integer(Int64(statuses))), ("requests", .integer(Int64(requests))),
            ("retries", .integer(Int64(retries))), ("notFound", .integer(Int64(notFound))),
        ])
    }

    /// Counts this run in swift-metrics (`--metrics-file`).
    func emitMetrics() {
        Counter(label: "winback_sync_ids_total", dimensions: [("mode", mode)]).increment(by: ids)
        Counter(label: "winback_sync_transactions_total", dimensions: [("mode", mode)]).increment(by: transactions)
        Counter(label: "winback_sync_statuses_total", dimensions: [("mode", mode)]).increment(by: statuses)
        Counter(label: "winback_sync_not_found_total", dimensions: [("mode", mode)]).increment(by: notFound)
        Counter(label: "winback_sync_requests_total", dimensions: [("mode", mode)]).increment(by: requests)
        Counter(label: "winback_sync_retries_total", dimensions: [("mode", mode)]).increment(by: retries)
    }
}
