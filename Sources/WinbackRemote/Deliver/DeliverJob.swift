import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackIO
import WinbackJobs

/// `winback deliver` (docs/deliveries.md): sends a published day's offer lines (`dt=<D>/offers.ndjson.gz`) and the
/// lifecycle events `delivery.events` lists (`lifecycle_events.ndjson.gz`) to each sink of the config's `delivery` —
/// the webhook (signed batches per campaign and per event type), Segment (Track calls), Braze (`/users/track`
/// events) — each batch exactly once as far as the ledger knows: a batch a sink acknowledged (2xx)
/// is recorded at once, and a later deliver of the day sends that sink only the rest. 429, 5xx, timeouts and
/// dropped connections are retried (then 75; batches sent stay sent); a redirect or another 4xx is 76 naming the
/// batch. A sink that fails never stops the others: every sink is tried, then the first failure is the exit code.
/// Secrets never appear in output.
public enum DeliverJob {
    /// Runs the delivery; throws a ``JobError`` (64 config, 74 I/O, 75 temporary or locked, 76 refused).
    public static func run(_ options: DeliverOptions, log: @escaping @Sendable (String) -> Void) async throws(JobError) -> DeliverOutcome {
        let loaded = try LoadedConfig.load(path: options.configPath)
        guard let settings = loaded.config.delivery else {
            throw .config(
                file: loaded.path,
                ConfigError(
                    key: "delivery",
                    message: "expected a delivery block (webhook, segment or braze), required by winback deliver; found none")
            )
        }
        // Every secret first: a missing one is 64 before anything is sent.
        let environment = options.environment
        let webhookKey = try settings.webhook.map { (webhook) throws(JobError) in
            try webhookSecret(loaded, settings: webhook, environment: environment, warn: log)
        }
        let segmentKey = try settings.segment.map { (segment) throws(JobError) in
            try SinkSecret.read(
                loaded, file: segment.writeKeyFile, variable: "WINBACK_SEGMENT_WRITE_KEY_FILE", environment: environment,
                key: "delivery.segment.writeKeyFile", warn: log
            ).bytes
        }
        let brazeKey = try settings.braze.map { (braze) throws(JobError) in
            try SinkSecret.read(
                loaded, file: braze.apiKeyFile, variable: "WINBACK_BRAZE_API_KEY_FILE", environment: environment,
                key: "delivery.braze.apiKeyFile", warn: log
            ).bytes
        }
        let calendar = try JobDay.calendar(config: loaded.config, asOf: options.asOf, now: options.now())
        let asOf = calendar.asOfLabel
        let cwd = FileManager.default.currentDirectoryPath
        let root = options.outputOverride.map { FileSystem.resolve($0, against: cwd) } ?? loaded.resolve(loaded.config.output)
        let day = root + "/dt=" + asOf
        guard FileManager.default.fileExists(atPath: day + "/_SUCCESS") else {
            throw .io(IOError(path: day, reason: "the day is not published (no _SUCCESS): run winback run --as-of \(asOf) first"))
        }
        var offers: [DeliveredOffer] = []
        try GzipLines.forEach(day + "/offers.ndjson.gz") { line, number throws(JobError) in
            guard let offer = DeliveredOffer(line: String(decoding: line, as: UTF8.self)) else {
                throw .io(IOError(path: day + "/offers.ndjson.gz", reason: "line \(number) is not an offer line (damaged?)"))
            }
            offers.append(offer)
        }

        let events = try lifecycleEvents(day: day, kinds: settings.lifecycleKinds, offers: offers)

        let ledger = try OfferLedger(path: loaded.ledgerPath(override: nil), startedAt: JobDay.timestamp(options.now()))
        let delivery = Delivery(
            options: options, ledger: ledger, asOf: asOf, offers: offers, sendsOffers: settings.sendsOffers, events: events, log: log)
        var outcome = DeliverOutcome(asOf: asOf)
        var failure: JobError?
        // Each sink on its own: one that fails is logged with what it reached, and the next still goes.
        func deliver(_ sink: String, _ body: (inout SinkCounts) async throws(JobError) -> Void) async {
            var counts = SinkCounts(sink: sink)
            do throws(JobError) {
                try await body(&counts)
            } catch {
                counts.error = error.description
                log("deliver: \(sink): stopped after \(counts.batches) batches: \(error.description)")
                failure = failure ?? error
            }
            outcome.sinks.append(counts)
        }
        if let webhook = settings.webhook, let webhookKey {
            await deliver("webhook") { (counts) throws(JobError) in try await delivery.webhook(webhook, key: webhookKey, counts: &counts) }
        }
        if let segment = settings.segment, let segmentKey {
            await deliver("segment") { (counts) throws(JobError) in
                try await delivery.segment(segment, writeKey: segmentKey, counts: &counts)
            }
        }
        if let braze = settings.braze, let brazeKey {
            await deliver("braze") { (counts) throws(JobError) in try await delivery.braze(braze, apiKey: brazeKey, counts: &counts) }
        }
        outcome.emitMetrics()
        if let failure { throw failure }
        return outcome
    }

    /// The day's lifecycle events of `kinds` (`dt=<D>/lifecycle_events.ndjson.gz`), by kind in that order, each with the
    /// account's offer of the day (the first in file order) or `null`. Nothing is read when `kinds` is empty.
    static func lifecycleEvents(day: String, kinds: [LifecycleEvent.Kind], offers: [DeliveredOffer]) throws(JobError) -> [(
        kind: LifecycleEvent.Kind, events: [DeliveredEvent]
    )] {
        guard !kinds.isEmpty else { return [] }
        let path = day + "/" + ReportSchema.lifecycleEvents.name
        guard FileManager.default.fileExists(atPath: path) else {
            throw .io(
                IOError(
                    path: path, reason: "the day was published without lifecycle events (by an older winback): run winback run for it again"
                ))
        }
        var offerOf: [String: String] = [:]
        for offer in offers where offerOf[offer.accountKey] == nil { offerOf[offer.accountKey] = offer.line }
        var byKind: [LifecycleEvent.Kind: [DeliveredEvent]] = [:]
        try GzipLines.forEach(path) { line, number throws(JobError) in
            guard let event = DeliveredEvent(line: String(decoding: line, as: UTF8.self), offer: { offerOf[$0] }) else {
                throw .io(IOError(path: path, reason: "line \(number) is not a lifecycle event line (damaged?)"))
            }
            byKind[event.kind, default: []].append(event)
        }
        return kinds.map { ($0, byKind[$0] ?? []) }
    }

    /// The HMAC key: `WINBACK_WEBHOOK_SECRET_FILE`, else `delivery.webhook.secretFile` (relative to the
    /// config); one trailing newline is not part of it; a `whsec_<base64>` secret is its decoded key, any other
    /// its bytes. Missing: 64; unreadable: 74; empty or bad base64 after `whsec_`: 64.
    static func webhookSecret(
        _ loaded: LoadedConfig, settings: WebhookSettings, environment: [String: String], warn: (String) -> Void
    ) throws(JobError) -> [UInt8] {
        let (path, secret) = try SinkSecret.read(
            loaded, file: settings.secretFile, variable: "WINBACK_WEBHOOK_SECRET_FILE", environment: environment,
            key: "delivery.webhook.secretFile", warn: warn)
        guard let key = StandardWebhooks.key(fromSecret: secret) else {
            throw .config(
                file: loaded.path,
                ConfigError(
                    key: "delivery.webhook.secretFile", message: "the secret in \(path) starts with whsec_ but the rest is not base64"))
        }
        return key
    }
}
