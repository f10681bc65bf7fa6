import Prometheus
import Synchronization

/// `winback serve`'s counters for `GET /metrics`: a swift-prometheus registry (text format 0.0.4) of responses
/// by outcome, a latency histogram, the decisions in use, request-log errors and pushed notifications; and the
/// few totals the stop summary reports.
final class ServeMetrics: Sendable {
    /// Upper bounds of the latency histogram's buckets, seconds (Apple waits about 700 ms).
    static let bucketBounds: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]

    /// The totals of the summary line (a Prometheus counter does not read back).
    private struct Totals {
        var outcomes: [String: Int] = [:]
        var responses = 0
        var refused = 0
        var notificationsByOutcome: [String: Int] = [:]
        /// The decisions gauge's day, replaced when serve moves to a newer day.
        var decisionsDay: String?
    }

    private let registry = PrometheusCollectorRegistry()
    private let latency: ValueHistogram
    private let logErrors: Counter
    private let totals = Mutex(Totals())

    private static func descriptor(_ name: String, unit: String = "", _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "winback", metricName: name, unitName: unit, helpText: help)
    }

    private static var requests: MetricNameDescriptor {
        descriptor("retention_requests_total", "Retention Messaging responses by outcome.")
    }
    private static var notifications: MetricNameDescriptor {
        descriptor("notifications_received_total", "Notifications pushed to POST /notifications, by type and outcome.")
    }
    private static var decisions: MetricNameDescriptor {
        descriptor("retention_decisions", "Subscriptions with a decision in the day being served.")
    }

    init() {
        latency = registry.makeValueHistogram(
            descriptor: Self.descriptor("retention_request_duration", unit: "seconds", "Time from a request's whole body to its answer."),
            buckets: Self.bucketBounds)
        logErrors = registry.makeCounter(
            descriptor: Self.descriptor("retention_log_errors_total", "Request-log lines that could not be written."))
    }

    /// Counts one response to `/retention` with its outcome and latency; `isRefused` when it was not a 200.
    func record(outcome: String, latencySeconds: Double, isRefused: Bool) {
        count(outcome: outcome)
        latency.record(latencySeconds)
        totals.withLock { totals in
            totals.responses += 1
            if isRefused { totals.refused += 1 }
        }
    }

    /// Counts a response with `outcome`; without latency when it is not an answer to `/retention` (`not_found`,
    /// `method_not_allowed`, `healthz`).
    func count(outcome: String) {
        registry.makeCounter(descriptor: Self.requests, labels: [("outcome", outcome)]).increment()
        totals.withLock { $0.outcomes[outcome, default: 0] += 1 }
    }

    /// Counts one `POST /notifications` by its notification type (`none` when unverified) and outcome
    /// (`accepted`, `duplicate`, or the refusal's code).
    func countNotification(type: String, outcome: String) {
        registry.makeCounter(descriptor: Self.notifications, labels: [("type", type), ("outcome", outcome)]).increment()
        totals.withLock { $0.notificationsByOutcome[outcome, default: 0] += 1 }
    }

    /// Pushed notifications counted with `outcome`, whatever their type.
    func notifications(outcome: String) -> Int {
        totals.withLock { $0.notificationsByOutcome[outcome] ?? 0 }
    }

    /// Counts a request-log line that could not be written.
    func countLogError() {
        logErrors.increment()
    }

    /// The responses to `/retention` so far.
    var totalResponses: Int { totals.withLock { $0.responses } }

    /// The responses to `/retention` so far that were not a 200.
    var refusedResponses: Int { totals.withLock { $0.refused } }

    /// The number of responses with `outcome` so far.
    func requests(outcome: String) -> Int { totals.withLock { $0.outcomes[outcome] ?? 0 } }

    /// The exposition text; `decisions` and `day` describe the decisions in use (one series, its `day` label
    /// the day served).
    func render(decisions: Int, day: String?) -> String {
        let label = day ?? ""
        let previous = totals.withLock { totals in
            defer { totals.decisionsDay = label }
            return totals.decisionsDay
        }
        if let previous, previous != label {
            registry.unregisterGauge(registry.makeGauge(descriptor: Self.decisions, labels: [("day", previous)]))
        }
        registry.makeGauge(descriptor: Self.decisions, labels: [("day", label)]).set(to: Double(decisions))
        return registry.emitToString()
    }
}
