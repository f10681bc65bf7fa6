import Foundation
import WinbackCore
import WinbackIO

/// `winback deliver` (docs/deliveries.md): sends a published day's offer lines (`dt=<D>/offers.ndjson.gz`) to the
/// config's `delivery.webhook` in signed batches, each exactly once as far as the ledger knows: a batch the
/// receiver acknowledged (2xx) is recorded at once, and a later deliver of the day sends only the rest.
/// 429, 5xx, timeouts and dropped connections are retried (then 75; batches sent stay sent); a redirect or
/// another 4xx is 76 naming the batch. The secret never appears in output.
public enum DeliverJob {
    /// Runs the delivery; throws a ``JobError`` (64 config, 74 I/O, 75 temporary or locked, 76 refused).
    public static func run(_ options: DeliverOptions, log: @escaping @Sendable (String) -> Void) async throws(JobError) -> DeliverOutcome {
        let loaded = try LoadedConfig.load(path: options.configPath)
        guard let settings = loaded.config.delivery else {
            throw .config(
                file: loaded.path,
                ConfigError(key: "delivery", message: "expected a webhook block (url, secretFile), required by winback deliver; found none")
            )
        }
        let secret = try webhookSecret(loaded, settings: settings, environment: options.environment, warn: log)
        let calendar = try RunJob.calendar(config: loaded.config, asOf: options.asOf, now: options.now())
        let asOf = calendar.asOfLabel
        let cwd = FileManager.default.currentDirectoryPath
        let root = options.outputOverride.map { FileSystem.resolve($0, against: cwd) } ?? loaded.resolve(loaded.config.output)
        let day = root + "/dt=" + asOf
        guard FileManager.default.fileExists(atPath: day + "/_SUCCESS") else {
            throw .io(IOError(path: day, reason: "the day is not published (no _SUCCESS): run winback run --as-of \(asOf) first"))
        }
        var lines: [(campaignId: String, line: String)] = []
        try GzipLines.forEach(day + "/offers.ndjson.gz") { line, number throws(JobError) in
            guard case .string(let campaign)? = try? JSONParser.parse(Array(line))["campaignId"] else {
                throw .io(IOError(path: day + "/offers.ndjson.gz", reason: "line \(number) is not an offer line (damaged?)"))
            }
            lines.append((campaign, String(decoding: line, as: UTF8.self)))
        }
        guard let url = URL(string: settings.url) else {
            throw .config(file: loaded.path, ConfigError(key: "delivery.webhook.url", message: "cannot form a URL from '\(settings.url)'"))
        }

        let ledger = try OfferLedger(path: loaded.ledgerPath(override: nil), startedAt: RunJob.timestamp(options.now()))
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
        let batches = WebhookBatch.batches(lines, asOf: asOf, batchSize: settings.batchSize, batchSizes: batchSizes)
        let retryLog: @Sendable (String) -> Void
        if options.isQuiet { retryLog = { _ in } } else { retryLog = log }
        return try await HTTPTransport.withTransport(timeout: Double(settings.timeoutSeconds), maximumBodyBytes: 1 << 20) {
            transport throws(JobError) in
            let sender = WebhookSender(
                transport: transport, url: url, secret: secret,
                policy: options.retryPolicy, now: options.now, sleep: options.sleep, jitter: options.jitter,
                log: retryLog)
            var outcome = DeliverOutcome(asOf: asOf)
            for batch in batches {
                if delivered[batch.campaignId]?.batches.contains(batch.number) == true {
                    outcome.alreadyDelivered += 1
                    continue
                }
                let (status, retries) = try await sender.send(batch)
                outcome.retries += retries
                try ledger.recordDelivery(
                    asOf: asOf, campaign: batch.campaignId, batch: batch.number, offers: batch.lines.count,
                    batchSize: batchSizes[batch.campaignId] ?? settings.batchSize, status: status,
                    acknowledgedAt: RunJob.timestamp(options.now()))
                outcome.batches += 1
                outcome.offers += batch.lines.count
                if !options.isQuiet { log("deliver: \(batch.idempotencyKey): \(batch.lines.count) offers acknowledged (HTTP \(status))") }
            }
            outcome.emitMetrics()
            return outcome
        }
    }

    /// The HMAC secret: `WINBACK_WEBHOOK_SECRET_FILE`, else `delivery.webhook.secretFile` (relative to the
    /// config); one trailing newline is not part of it. Missing: 64; unreadable: 74; empty: 64.
    static func webhookSecret(
        _ loaded: LoadedConfig, settings: DeliverySettings, environment: [String: String], warn: (String) -> Void
    ) throws(JobError) -> [UInt8] {
        let override = environment["WINBACK_WEBHOOK_SECRET_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        guard let path = override ?? settings.secretFile.map(loaded.resolve) else {
            throw .config(
                file: loaded.path,
                ConfigError(
                    key: "delivery.webhook.secretFile", message: "expected the secret's file (or WINBACK_WEBHOOK_SECRET_FILE), found none"))
        }
        var secret = try FileSystem.readAll(path)
        if secret.last == UInt8(ascii: "\n") { secret.removeLast() }
        if secret.last == UInt8(ascii: "\r") { secret.removeLast() }
        guard !secret.isEmpty else {
            throw .config(file: loaded.path, ConfigError(key: "delivery.webhook.secretFile", message: "the secret file \(path) is empty"))
        }
        if let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int, mode & 0o077 != 0 {
            warn("warning: webhook secret \(path) is readable by group or others (mode \(String(mode, radix: 8))); chmod 600 it")
        }
        return secret
    }
}
