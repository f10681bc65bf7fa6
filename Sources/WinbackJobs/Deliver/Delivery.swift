import Foundation
import WinbackCore

/// One `winback deliver` of a day to each sink (docs/deliveries.md): the day's offers, the ledger that remembers what
/// each sink acknowledged, and how to send. Each method delivers one sink, counting into `counts` as it goes (a
/// sink that fails keeps the counts of what it acknowledged).
struct Delivery {
    let options: DeliverOptions
    let ledger: OfferLedger
    let asOf: String
    let offers: [DeliveredOffer]
    let log: @Sendable (String) -> Void

    /// Retry lines on stderr unless `--quiet`.
    private var retryLog: @Sendable (String) -> Void {
        if options.isQuiet { return { _ in } }
        return log
    }

    private func sender(_ name: String, transport: HTTPTransport, url: String, key: String) throws(JobError) -> SinkSender {
        guard let url = URL(string: url) else {
            throw .config(file: options.configPath, ConfigError(key: key, message: "cannot form a URL from '\(url)'"))
        }
        return SinkSender(
            name: name, transport: transport, url: url, policy: options.retryPolicy, now: options.now, sleep: options.sleep,
            jitter: options.jitter, log: retryLog)
    }

    private var now: String { JobDay.timestamp(options.now()) }

    /// The webhook: per campaign, `batchSize` offer lines a request, signed (``WebhookBatch``).
    func webhook(_ settings: WebhookSettings, key: [UInt8], counts: inout SinkCounts) async throws(JobError) {
        let delivered = try ledger.deliveredBatches(asOf: asOf)
        var batchSizes: [String: Int] = [:]
        for (campaign, record) in delivered where record.batchSize != settings.batchSize {
            batchSizes[campaign] = record.batchSize
            if !options.isQuiet {
                log(
                    "deliver: \(campaign): batches of \(record.batchSize) as an earlier deliver of \(asOf) cut them (batchSize is now \(settings.batchSize))"
                )
            }
        }
        let batches = WebhookBatch.batches(
            offers.map { ($0.campaignId, $0.line) }, asOf: asOf, batchSize: settings.batchSize, batchSizes: batchSizes)
        let start = counts
        let (reached, failure) = try await HTTPTransport.withTransport(
            timeout: Double(settings.timeoutSeconds), maximumBodyBytes: 1 << 20
        ) { transport throws(JobError) -> (SinkCounts, JobError?) in
            var counts = start
            let sender = try sender("the webhook", transport: transport, url: settings.url, key: "delivery.webhook.url")
            for batch in batches {
                if delivered[batch.campaignId]?.batches.contains(batch.number) == true {
                    counts.alreadyDelivered += 1
                    continue
                }
                let status: Int
                do throws(JobError) {
                    (status, counts.retries) = try await sender.send(body: batch.body, key: batch.idempotencyKey, retries: counts.retries) {
                        seconds in batch.headers(key: key, seconds: seconds)
                    }
                } catch { return (counts, error) }
                try ledger.recordDelivery(
                    asOf: asOf, campaign: batch.campaignId, batch: batch.number, offers: batch.lines.count,
                    batchSize: batchSizes[batch.campaignId] ?? settings.batchSize, status: status, acknowledgedAt: now)
                counts.batches += 1
                counts.offers += batch.lines.count
                if !options.isQuiet { log("deliver: \(batch.idempotencyKey): \(batch.lines.count) offers acknowledged (HTTP \(status))") }
            }
            return (counts, nil)
        }
        counts = reached
        if let failure { throw failure }
    }

    /// Segment: Track calls in batches of at most 500 KB (``SegmentBatch``), HTTP Basic auth with the write key.
    func segment(_ settings: SegmentSettings, writeKey: [UInt8], counts: inout SinkCounts) async throws(JobError) {
        let (batches, tooLarge) = SegmentBatch.batches(offers, asOf: asOf)
        counts.skipped = tooLarge.count
        for key in tooLarge { log("warning: deliver: segment: offer \(key) is over Segment's 32 KB message limit; not sent") }
        let authorization = "Basic " + Data(writeKey + Array(":".utf8)).base64EncodedString()
        let (reached, failure) = try await sendNumbered(
            "segment", name: "Segment", url: settings.url, urlKey: "delivery.segment.url", timeout: settings.timeoutSeconds,
            batches: batches.map { batch in (batch.number, batch.offers.count, { batch.body(offers, asOf: asOf) }) },
            headers: [("Authorization", authorization)],
            counts: counts)
        counts = reached
        if let failure { throw failure }
    }

    /// Braze: `/users/track` events, 75 a request (``BrazeBatch``), bearer auth; offers without an
    /// `appAccountToken` are skipped and counted.
    func braze(_ settings: BrazeSettings, apiKey: [UInt8], counts: inout SinkCounts) async throws(JobError) {
        let (batches, skipped) = BrazeBatch.batches(offers)
        counts.skipped = skipped
        let (reached, failure) = try await sendNumbered(
            "braze", name: "Braze", url: settings.restEndpoint + "/users/track", urlKey: "delivery.braze.restEndpoint",
            timeout: settings.timeoutSeconds,
            batches: batches.map { batch in (batch.number, batch.offers.count, { batch.body(offers, asOf: asOf) }) },
            headers: [("Authorization", "Bearer " + String(decoding: apiKey, as: UTF8.self))], counts: counts)
        counts = reached
        if let failure { throw failure }
    }

    /// Sends a sink's numbered batches (`number`, offers in it, its body rendered on demand) not yet acknowledged, recording each as it is;
    /// the counts reached, and the failure that stopped the sink.
    private func sendNumbered(
        _ sink: String, name: String, url: String, urlKey: String, timeout: Int,
        batches: [(number: Int, offers: Int, body: () -> [UInt8])],
        headers: [(String, String)], counts: SinkCounts
    ) async throws(JobError) -> (SinkCounts, JobError?) {
        let acknowledged = try ledger.acknowledgedBatches(sink: sink, asOf: asOf)
        return try await HTTPTransport.withTransport(timeout: Double(timeout), maximumBodyBytes: 1 << 20) {
            transport throws(JobError) -> (SinkCounts, JobError?) in
            var counts = counts
            let sender = try sender(name, transport: transport, url: url, key: urlKey)
            for batch in batches {
                if acknowledged.contains(batch.number) {
                    counts.alreadyDelivered += 1
                    continue
                }
                let key = "\(sink)/\(asOf)/\(batch.number)"
                let status: Int
                do throws(JobError) {
                    (status, counts.retries) = try await sender.send(body: batch.body(), key: key, retries: counts.retries) { _ in headers }
                } catch { return (counts, error) }
                try ledger.recordSinkBatch(
                    sink: sink, asOf: asOf, batch: batch.number, messages: batch.offers, status: status, acknowledgedAt: now)
                counts.batches += 1
                counts.offers += batch.offers
                if !options.isQuiet { log("deliver: \(key): \(batch.offers) offers acknowledged (HTTP \(status))") }
            }
            return (counts, nil)
        }
    }
}
