import CoreMetrics
import WinbackAppStore
import WinbackJobs

/// What `winback refunds` did, for its summary line (docs/refunds.md).
public struct RefundsOutcome: Sendable, CommandSummary {
    /// `CONSUMPTION_REQUEST`s the model holds.
    public var requests = 0
    /// Requests answered by an earlier run (nothing done).
    public var alreadyAnswered = 0
    /// Answers Apple accepted in this run (HTTP 202).
    public var sent = 0
    /// Requests recorded too late (over 12 hours old) in this run.
    public var late = 0
    /// Requests whose decision was `NO_RESPONSE`, recorded in this run.
    public var noResponse = 0
    /// Answers Apple refused with a 4xx in this run.
    public var refused = 0
    /// Requests without an accepted transaction (nothing to answer for).
    public var skipped = 0
    /// Requests that were retries.
    public var retries = 0
    /// A dry run: nothing sent or recorded; the counts say what would be.
    public var isDryRun = false

    /// The summary on stdout.
    public var summary: JSONValue {
        JSONText.object([
            ("command", .string("refunds")), ("exitCode", .integer(0)), ("dryRun", .bool(isDryRun)),
            ("requests", .integer(Int64(requests))), ("alreadyAnswered", .integer(Int64(alreadyAnswered))),
            ("sent", .integer(Int64(sent))), ("late", .integer(Int64(late))), ("noResponse", .integer(Int64(noResponse))),
            ("refused", .integer(Int64(refused))), ("skipped", .integer(Int64(skipped))), ("retries", .integer(Int64(retries))),
        ])
    }

    /// Counts this run in swift-metrics (`--metrics-file`).
    func emitMetrics() {
        for (outcome, count) in [("sent", sent), ("late", late), ("no_response", noResponse), ("refused", refused)] {
            Counter(label: "winback_refund_answers_total", dimensions: [("outcome", outcome)]).increment(by: count)
        }
        Counter(label: "winback_refund_requests_total").increment(by: requests)
        Counter(label: "winback_refund_retries_total").increment(by: retries)
    }
}
