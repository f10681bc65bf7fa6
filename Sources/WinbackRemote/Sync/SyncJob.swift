import Foundation
import WinbackCore
import WinbackIO
import WinbackJobs

/// `winback sync` (docs/sync.md): downloads App Store Server Notifications from the App Store Server API's
/// notification history, one UTC day at a time, into `<api.directory>/notifications/<YYYY-MM-DD>.ndjson.gz`
/// (`{"signedPayload": …}` lines, the form `winback run` reads), each written atomically once all its pages
/// are in. A day already written is skipped unless `refresh`. One sync at a time per directory (a lock).
public enum SyncJob {
    /// Runs the sync; throws a ``JobError`` with the exit code of docs/sync.md (64, 74, 75, 76, 77).
    public static func run(_ options: SyncOptions, log: @escaping @Sendable (String) -> Void) async throws(JobError) -> SyncOutcome {
        let loaded = try LoadedConfig.load(path: options.configPath)
        let settings = try SyncSetup.settings(loaded)
        let days: [SyncDay]
        do {
            days = try SyncDayRange.days(
                from: options.from, to: options.to, now: Int64((options.now().timeIntervalSince1970 * 1000).rounded(.down)))
        } catch {
            throw .usage(error.description)
        }
        let key = try InAppPurchaseKeyLoader.apiKey(loaded, settings: settings, environment: options.environment, warn: log)
        let directory = loaded.resolve(settings.directory) + "/notifications"
        let lock = try SyncSetup.lock(directory, now: options.now())
        defer { withExtendedLifetime(lock) {} }
        removeLeftovers(in: directory)

        let baseURL = settings.baseURL ?? APISettings.defaultBaseURL(environment: loaded.config.app.environment)
        let retryLog: @Sendable (String) -> Void
        if options.isQuiet { retryLog = { _ in } } else { retryLog = log }
        let outcome = try await HTTPTransport.withTransport(timeout: options.requestTimeout, maximumBodyBytes: options.maximumResponseBytes)
        {
            transport throws(JobError) in
            let client = NotificationHistoryClient(
                client: AppStoreAPIClient(
                    transport: transport, baseURL: baseURL,
                    key: key, bundleId: loaded.config.app.bundleId, policy: options.retryPolicy,
                    pacer: RequestPacer(requestsPerSecond: Double(settings.requestsPerSecond), onDeparture: options.onRequest),
                    now: options.now,
                    sleep: options.sleep, jitter: options.jitter, log: retryLog),
                maxPages: Int(settings.maxPages))
            let progress = options.isQuiet ? nil : SyncProgress(log: log)
            var outcome = SyncOutcome(from: days[0].label, to: days[days.count - 1].label, directory: directory)
            for day in days {
                let path = directory + "/" + day.fileName
                if !options.refresh, FileManager.default.fileExists(atPath: path) {
                    outcome.daysSkipped += 1
                    progress?.finish("sync: \(day): already written; skipped (--refresh fetches it again)")
                    continue
                }
                let history = try await client.fetch(day: day) { pages, count in
                    progress?.update("sync: \(day): page \(pages), \(count) notifications")
                }
                try FileSystem.writeAtomically(try dayFile(history.signedPayloads, path: path), to: path)
                outcome.daysWritten += 1
                outcome.notifications += history.signedPayloads.count
                outcome.requests += history.requests
                outcome.retries += history.retries
                progress?.finish(
                    "sync: \(day): \(history.signedPayloads.count) notification\(history.signedPayloads.count == 1 ? "" : "s") in \(history.pages) page\(history.pages == 1 ? "" : "s")"
                        + (history.retries > 0 ? ", \(history.retries) retried" : "") + " → \(path)")
            }
            outcome.emitMetrics()
            return outcome
        }
        warnIfNotRead(days.map { directory + "/" + $0.fileName }, loaded: loaded, log: log)
        return outcome
    }

    /// Warns when no `inputs` pattern matches the synced files: `winback run` would not read them.
    private static func warnIfNotRead(_ paths: [String], loaded: LoadedConfig, log: (String) -> Void) {
        guard let path = paths.first(where: { FileManager.default.fileExists(atPath: $0) }) else { return }
        let isRead = loaded.config.inputs.contains { pattern in
            Glob.expand(pattern, in: loaded.directory).contains { $0.absolutePath == path }
        }
        if !isRead {
            log(
                "warning: no pattern of the config's inputs matches \(path); add \"\(loaded.config.api?.directory ?? "…")/notifications/*.ndjson.gz\" "
                    + "to inputs, or winback run will not read the synced notifications")
        }
    }

    /// The gzip NDJSON of a day: one `{"signedPayload":"…"}` line per notification (empty for a day without any).
    static func dayFile(_ signedPayloads: [String], path: String) throws(JobError) -> [UInt8] {
        try SyncSetup.lines(member: "signedPayload", signedPayloads, path: path)
    }

    /// Temporary files a killed sync left (`.<name>.<pid>.tmp`); the lock is held, so none is being written.
    private static func removeLeftovers(in directory: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }
}
