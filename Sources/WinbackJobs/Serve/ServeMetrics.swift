import Synchronization

/// `winback serve`'s counters for `GET /metrics`, in Prometheus's text format (version 0.0.4): requests by
/// outcome and a latency histogram. Written by hand: two metric families do not need swift-metrics and
/// swift-prometheus in the build (docs/retention-messaging.md).
final class ServeMetrics: Sendable {
    /// Upper bounds of the latency histogram's buckets, seconds (Apple waits about 700 ms).
    static let bucketBounds: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]

    private struct State {
        var outcomes: [String: Int] = [:]
        /// Observations at or below each bound (not yet cumulative), then the overflow.
        var buckets = [Int](repeating: 0, count: ServeMetrics.bucketBounds.count + 1)
        var latencySum = 0.0
        var latencyCount = 0
        var logErrors = 0
        var refused = 0
        /// Pushed notifications by type and outcome.
        var notifications: [Pair: Int] = [:]
    }

    private struct Pair: Hashable {
        var type: String
        var outcome: String
    }

    private let state = Mutex(State())

    /// Counts one response to `/retention` with its outcome and latency; `isRefused` when it was not a 200.
    func record(outcome: String, latencySeconds: Double, isRefused: Bool) {
        state.withLock { state in
            state.outcomes[outcome, default: 0] += 1
            if isRefused { state.refused += 1 }
            let bucket = Self.bucketBounds.firstIndex { latencySeconds <= $0 } ?? Self.bucketBounds.count
            state.buckets[bucket] += 1
            state.latencySum += latencySeconds
            state.latencyCount += 1
        }
    }

    /// Counts a response outside `POST /retention` (`not_found`, `method_not_allowed`), without latency.
    func count(outcome: String) {
        state.withLock { $0.outcomes[outcome, default: 0] += 1 }
    }

    /// Counts one `POST /notifications` by its notification type (`none` when unverified) and outcome
    /// (`accepted`, `duplicate`, or the refusal's code).
    func countNotification(type: String, outcome: String) {
        state.withLock { $0.notifications[Pair(type: type, outcome: outcome), default: 0] += 1 }
    }

    /// Pushed notifications counted with `outcome`, whatever their type.
    func notifications(outcome: String) -> Int {
        state.withLock { $0.notifications.filter { $0.key.outcome == outcome }.values.reduce(0, +) }
    }

    /// Counts a request-log line that could not be written.
    func countLogError() {
        state.withLock { $0.logErrors += 1 }
    }

    /// The responses to `/retention` so far.
    var totalResponses: Int { state.withLock { $0.latencyCount } }

    /// The responses to `/retention` so far that were not a 200.
    var refusedResponses: Int { state.withLock { $0.refused } }

    /// The number of responses with `outcome` so far.
    func requests(outcome: String) -> Int { state.withLock { $0.outcomes[outcome] ?? 0 } }

    /// The exposition text; `decisions` and `day` describe the decisions in use.
    func render(decisions: Int, day: String?) -> String {
        let state = state.withLock { $0 }
        var text = "# HELP winback_retention_requests_total Retention Messaging responses by outcome.\n"
        text += "# TYPE winback_retention_requests_total counter\n"
        for (outcome, count) in state.outcomes.sorted(by: { $0.key < $1.key }) {
            text += "winback_retention_requests_total{outcome=\"\(outcome)\"} \(count)\n"
        }
        text += "# HELP winback_retention_request_duration_seconds Time from a request's whole body to its answer.\n"
        text += "# TYPE winback_retention_request_duration_seconds histogram\n"
        var cumulative = 0
        for (index, bound) in Self.bucketBounds.enumerated() {
            cumulative += state.buckets[index]
            text += "winback_retention_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        text += "winback_retention_request_duration_seconds_bucket{le=\"+Inf\"} \(state.latencyCount)\n"
        text += "winback_retention_request_duration_seconds_sum \(state.latencySum)\n"
        text += "winback_retention_request_duration_seconds_count \(state.latencyCount)\n"
        text += "# HELP winback_retention_decisions Subscriptions with a decision in the day being served.\n"
        text += "# TYPE winback_retention_decisions gauge\n"
        text += "winback_retention_decisions{day=\"\(day ?? "")\"} \(decisions)\n"
        text += "# HELP winback_retention_log_errors_total Request-log lines that could not be written.\n"
        text += "# TYPE winback_retention_log_errors_total counter\n"
        text += "winback_retention_log_errors_total \(state.logErrors)\n"
        text += "# HELP winback_notifications_received_total Notifications pushed to POST /notifications, by type and outcome.\n"
        text += "# TYPE winback_notifications_received_total counter\n"
        for (pair, count) in state.notifications.sorted(by: { ($0.key.type, $0.key.outcome) < ($1.key.type, $1.key.outcome) }) {
            text += "winback_notifications_received_total{type=\"\(pair.type)\",outcome=\"\(pair.outcome)\"} \(count)\n"
        }
        return text
    }
}
