import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackJobs

/// One `winback deliver` of a day to each sink (docs/deliveries.md): the day's offers and lifecycle events, the ledger
/// that remembers what each sink acknowledged, and how to send. Each method delivers one sink, counting into
/// `counts` as it goes (a sink that fails keeps the counts of what it acknowledged).
///
/// A sink's batches come in streams, each numbered from 0 per day: the offers (the webhook's per campaign) and one
/// per lifecycle event type. The webhook's offer batches are recorded in the ledger's `deliveries` (with the batch
/// size they were cut with); every other stream in `sink_batches` under its own name: `segment`, `braze` for offers,
/// `<sink>/<event type>` for events.
struct Delivery {
    let options: DeliverOptions
    let ledger: OfferLedger
    let asOf: String
    /// The day's offers (every line of `offers.ndjson.gz`).
    let offers: [DeliveredOffer]
    /// Whether the offers are sent (`"offers"` in `delivery.events`).
    let sendsOffers: Bool
    /// The day's lifecycle events of each type `delivery.events` lists, in that order.
    let events: [(kind: LifecycleEvent.Kind, events: [DeliveredEvent])]
    let log: @Sendable (String) -> Void

    /// One request to make: its key, the messages in it, whether an earlier deliver had it acknowledged, how to render
    /// its body and each attempt's headers, and how to record its acknowledgement.
    private struct Pending {
        var key: String
        var messages: Int
        var isEvents: Bool
        var isAcknowledged: Bool
        var body: () -> [UInt8]
        var headers: (_ body: [UInt8], _ seconds: Int64) -> [(String, String)]
        var record: (_ status: Int) throws(JobError) -> Void
    }

    /// Retry lines on stderr unless `--quiet`.
    private var retryLog: @Sendable (String) -> Void {
        if options.isQuiet { return { _ in } }
        return log
    }

    private var now: String { JobDay.timestamp(options.now()) }

    /// The webhook: per campaign, `batchSize` offer lines a request; per event type, `batchSize` events a request;
    /// each signed (``WebhookBatch``).
    func webhook(_ settings: WebhookSettings, key: [UInt8], counts: inout SinkCounts) async throws(JobError) {
        var pending: [Pending] = []
        func add(_ batch: WebhookBatch, isAcknowledged: Bool, record: @escaping (Int) throws(JobError) -> Void) {
            pending.append(
                Pending(
                    key: batch.idempotencyKey, messages: batch.lines.count, isEvents: batch.stream.isEvents,
                    isAcknowledged: isAcknowledged, body: { batch.body },
                    headers: { _, seconds in batch.headers(key: key, seconds: seconds) }, record: record))
        }
        if sendsOffers {
            let delivered = try ledger.deliveredBatches(asOf: asOf)
            var batchSizes: [String: Int] = [:]
            for (campaign, record) in delivered where record.batchSize != settings.batchSize {
                batchSizes[campaign] = record.batchSize
                say(
                    "deliver: \(campaign): batches of \(record.batchSize) as an earlier deliver of \(asOf) cut them (batchSize is now \(settings.batchSize))"
                )
            }
            for batch in WebhookBatch.batches(
                offers.map { ($0.campaignId, $0.line) }, asOf: asOf, batchSize: settings.batchSize, batchSizes: batchSizes)
            {
                guard case .offers(let campaign) = batch.stream else { continue }
                let (ledger, asOf, size) = (ledger, asOf, batchSizes[campaign] ?? settings.batchSize)
                add(batch, isAcknowledged: delivered[campaign]?.batches.contains(batch.number) == true) { (status) throws(JobError) in
                    try ledger.recordDelivery(
                        asOf: asOf, campaign: campaign, batch: batch.number, offers: batch.lines.count, batchSize: size, status: status,
                        acknowledgedAt: now)
                }
            }
        }
        for (kind, events) in events {
            let sink = "webhook/" + kind.rawValue
            let acknowledged = try ledger.acknowledgedBatches(sink: sink, asOf: asOf)
            // Batches already acknowledged were cut with the size of the first (every one but the last is full).
            let size = acknowledged[0] ?? settings.batchSize
            for batch in WebhookBatch.cut(events.map(\.line), stream: .events(kind), asOf: asOf, size: size) {
                add(batch, isAcknowledged: acknowledged[batch.number] != nil, record: recorder(sink, batch.number, batch.lines.count))
            }
        }
        try await send(
            "the webhook", url: settings.url, urlKey: "delivery.webhook.url", timeout: settings.timeoutSeconds, pending, counts: &counts)
    }

    /// Segment: Track calls in batches of at most 500 KB (``SegmentBatch``), HTTP Basic auth with the write key.
    func segment(_ settings: SegmentSettings, writeKey: [UInt8], counts: inout SinkCounts) async throws(JobError) {
        let authorization = [("Authorization", "Basic " + Data(writeKey + Array(":".utf8)).base64EncodedString())]
        var pending: [Pending] = []
        func add(_ all: [some SinkMessage], sink: String, isEvents: Bool) throws(JobError) {
            let (batches, tooLarge) = SegmentBatch.batches(all, asOf: asOf)
            counts.skipped += tooLarge.count
            for id in tooLarge { log("warning: deliver: segment: \(id) is over Segment's 32 KB message limit; not sent") }
            pending += try numbered(
                sink, isEvents: isEvents, authorization: authorization,
                batches: batches.map { batch in (batch.number, batch.messages.count, { [asOf] in batch.body(all, asOf: asOf) }) })
        }
        if sendsOffers { try add(offers, sink: "segment", isEvents: false) }
        for (kind, events) in events { try add(events, sink: "segment/" + kind.rawValue, isEvents: true) }
        try await send(
            "Segment", url: settings.url, urlKey: "delivery.segment.url", timeout: settings.timeoutSeconds, pending, counts: &counts)
    }

    /// Braze: `/users/track` events, 75 a request (``BrazeBatch``), bearer auth; messages without an
    /// `appAccountToken` are skipped and counted.
    func braze(_ settings: BrazeSettings, apiKey: [UInt8], counts: inout SinkCounts) async throws(JobError) {
        let authorization = [("Authorization", "Bearer " + String(decoding: apiKey, as: UTF8.self))]
        var pending: [Pending] = []
        func add(_ all: [some SinkMessage], sink: String, isEvents: Bool) throws(JobError) {
            let (batches, skipped) = BrazeBatch.batches(all)
            counts.skipped += skipped
            pending += try numbered(
                sink, isEvents: isEvents, authorization: authorization,
                batches: batches.map { batch in (batch.number, batch.messages.count, { [asOf] in batch.body(all, asOf: asOf) }) })
        }
        if sendsOffers { try add(offers, sink: "braze", isEvents: false) }
        for (kind, events) in events { try add(events, sink: "braze/" + kind.rawValue, isEvents: true) }
        try await send(
            "Braze", url: settings.restEndpoint + "/users/track", urlKey: "delivery.braze.restEndpoint", timeout: settings.timeoutSeconds,
            pending, counts: &counts)
    }

    /// The requests of one `sink_batches` stream (`segment`, `braze/subscription.expired`, …): its numbered batches
    /// (the messages in each, the body rendered on demand), keyed `<stream>/<D>/<number>`, with the same headers.
    private func numbered(
        _ sink: String, isEvents: Bool, authorization: [(String, String)],
        batches: [(number: Int, messages: Int, body: () -> [UInt8])]
    ) throws(JobError) -> [Pending] {
        let acknowledged = try ledger.acknowledgedBatches(sink: sink, asOf: asOf)
        return batches.map { batch in
            Pending(
                key: "\(sink)/\(asOf)/\(batch.number)", messages: batch.messages, isEvents: isEvents,
                isAcknowledged: acknowledged[batch.number] != nil, body: batch.body, headers: { _, _ in authorization },
                record: recorder(sink, batch.number, batch.messages))
        }
    }

    /// Records an acknowledged batch of a `sink_batches` stream.
    private func recorder(_ sink: String, _ number: Int, _ messages: Int) -> (Int) throws(JobError) -> Void {
        let (ledger, asOf) = (ledger, asOf)
        return { (status) throws(JobError) in
            try ledger.recordSinkBatch(sink: sink, asOf: asOf, batch: number, messages: messages, status: status, acknowledgedAt: now)
        }
    }

    /// Sends the sink's batches not yet acknowledged, in order, recording each as it is acknowledged; the counts
    /// reached are in `counts` also when a batch fails (which is thrown).
    private func send(
        _ name: String, url: String, urlKey: String, timeout: Int, _ pending: [Pending], counts: inout SinkCounts
    ) async throws(JobError) {
        guard let target = URL(string: url) else {
            throw .config(file: options.configPath, ConfigError(key: urlKey, message: "cannot form a URL from '\(url)'"))
        }
        let start = counts
        let (reached, failure) = try await HTTPTransport.withTransport(timeout: Double(timeout), maximumBodyBytes: 1 << 20) {
            transport throws(JobError) -> (SinkCounts, JobError?) in
            var counts = start
            let sender = SinkSender(
                name: name, transport: transport, url: target, policy: options.retryPolicy, now: options.now, sleep: options.sleep,
                jitter: options.jitter, log: retryLog)
            for batch in pending {
                if batch.isAcknowledged {
                    counts.alreadyDelivered += 1
                    continue
                }
                let body = batch.body()
                let status: Int
                do throws(JobError) {
                    (status, counts.retries) = try await sender.send(body: body, key: batch.key, retries: counts.retries) { seconds in
                        batch.headers(body, seconds)
                    }
                } catch { return (counts, error) }
                try batch.record(status)
                counts.batches += 1
                if batch.isEvents { counts.events += batch.messages } else { counts.offers += batch.messages }
                say("deliver: \(batch.key): \(batch.messages) \(batch.isEvents ? "events" : "offers") acknowledged (HTTP \(status))")
            }
            return (counts, nil)
        }
        counts = reached
        if let failure { throw failure }
    }

    /// A progress line, unless `--quiet`.
    private func say(_ line: String) {
        if !options.isQuiet { log(line) }
    }
}
