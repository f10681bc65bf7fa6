import CoreMetrics
import WinbackAppStore

/// What `winback deliver` did for one sink in this run (docs/deliveries.md).
public struct SinkCounts: Sendable, Equatable {
    /// `webhook`, `segment` or `braze`.
    public var sink: String
    /// Batches acknowledged in this run.
    public var batches = 0
    /// Offers in those batches.
    public var offers = 0
    /// Lifecycle events in those batches.
    public var events = 0
    /// Requests that were retries.
    public var retries = 0
    /// Batches an earlier deliver had sent (skipped).
    public var alreadyDelivered = 0
    /// Offers and events not sent to this sink: Braze's without an `appAccountToken`, Segment's over its 32 KB message limit.
    public var skipped = 0
    /// Why the sink stopped, when it failed (the other sinks went on).
    public var error: String?

    /// Counts of `sink`, all zero.
    public init(sink: String) {
        self.sink = sink
    }

    /// The sink's object in the summary line.
    var json: JSONValue {
        JSONText.object([
            ("batches", .integer(Int64(batches))), ("offers", .integer(Int64(offers))), ("events", .integer(Int64(events))),
            ("retries", .integer(Int64(retries))),
            ("alreadyDelivered", .integer(Int64(alreadyDelivered))), ("skipped", .integer(Int64(skipped))),
            ("error", error.map(JSONValue.string) ?? .null),
        ])
    }

    /// Counts this run in swift-metrics (`--metrics-file`), labelled by sink.
    func emitMetrics() {
        let sink = [("sink", sink)]
        Counter(label: "winback_deliver_batches_total", dimensions: sink).increment(by: batches)
        Counter(label: "winback_deliver_offers_total", dimensions: sink).increment(by: offers)
        Counter(label: "winback_deliver_events_total", dimensions: sink).increment(by: events)
        Counter(label: "winback_deliver_retries_total", dimensions: sink).increment(by: retries)
        Counter(label: "winback_deliver_already_delivered_total", dimensions: sink).increment(by: alreadyDelivered)
        Counter(label: "winback_deliver_skipped_total", dimensions: sink).increment(by: skipped)
    }
}
