import WinbackAppStore
import WinbackJobs

/// What `winback deliver` did, for its summary line (docs/deliveries.md): this run's batches and offers over every
/// sink, and per sink.
public struct DeliverOutcome: Sendable, CommandSummary {
    /// The day delivered.
    public var asOf: String
    /// Per configured sink, in the order webhook, segment, braze.
    public var sinks: [SinkCounts] = []

    /// Batches acknowledged in this run, every sink.
    public var batches: Int { sinks.reduce(0) { $0 + $1.batches } }
    /// Offers in those batches, every sink.
    public var offers: Int { sinks.reduce(0) { $0 + $1.offers } }
    /// Lifecycle events in those batches, every sink.
    public var events: Int { sinks.reduce(0) { $0 + $1.events } }
    /// Requests that were retries, every sink.
    public var retries: Int { sinks.reduce(0) { $0 + $1.retries } }
    /// Batches an earlier deliver had sent, every sink.
    public var alreadyDelivered: Int { sinks.reduce(0) { $0 + $1.alreadyDelivered } }

    /// The counts of `sink`, if configured.
    public func counts(_ sink: String) -> SinkCounts? { sinks.first { $0.sink == sink } }

    /// The summary on stdout.
    public var summary: JSONValue {
        JSONText.object([
            ("command", .string("deliver")), ("exitCode", .integer(0)), ("asOf", .string(asOf)),
            ("batches", .integer(Int64(batches))), ("offers", .integer(Int64(offers))),
            ("events", .integer(Int64(events))), ("retries", .integer(Int64(retries))),
            ("alreadyDelivered", .integer(Int64(alreadyDelivered))),
            ("sinks", JSONText.object(sinks.map { ($0.sink, $0.json) })),
        ])
    }

    /// Counts this run in swift-metrics (`--metrics-file`).
    func emitMetrics() {
        for sink in sinks { sink.emitMetrics() }
    }
}
