import CoreMetrics
import WinbackCore

/// What `winback deliver` did, for its summary line (docs/deliveries.md): this run's batches and offers.
public struct DeliverOutcome: Sendable {
    /// The day delivered.
    public var asOf: String
    /// Batches acknowledged in this run.
    public var batches = 0
    /// Offer lines in those batches.
    public var offers = 0
    /// Requests that were retries.
    public var retries = 0
    /// Batches an earlier deliver had sent (skipped).
    public var alreadyDelivered = 0

    /// The one-line JSON summary on stdout.
    public var summaryLine: String {
        JSONText.render(
            JSONText.object([
                ("command", .string("deliver")), ("exitCode", .integer(0)), ("asOf", .string(asOf)),
                ("batches", .integer(Int64(batches))), ("offers", .integer(Int64(offers))), ("retries", .integer(Int64(retries))),
                ("alreadyDelivered", .integer(Int64(alreadyDelivered))),
            ]))
    }

    /// Counts this run in swift-metrics (`--metrics-file`).
    func emitMetrics() {
        Counter(label: "winback_deliver_batches_total").increment(by: batches)
        Counter(label: "winback_deliver_offers_total").increment(by: offers)
        Counter(label: "winback_deliver_retries_total").increment(by: retries)
        Counter(label: "winback_deliver_already_delivered_total").increment(by: alreadyDelivered)
    }
}
