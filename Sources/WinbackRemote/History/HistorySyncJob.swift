import Foundation
import Synchronization
import WinbackAnalytics
import WinbackCore
import WinbackIO
import WinbackJobs

/// `winback sync --history` and `--statuses` (docs/sync.md): for each original transaction id, Get Transaction
/// History v2 (every transaction, then only what changed since the kept `revision`) and Get All Subscription
/// Statuses, written under `<api.directory>/history` and `<api.directory>/statuses` (``HistoryFiles``).
///
/// Ids are worked on by ``concurrency`` tasks at once, every request paced by one ``RequestPacer`` at
/// `api.requestsPerSecond`. An id's file is durable before its cursor is committed; a part never repeats a
/// transaction already written (a kill between the two is resolved from the files). A sync that stops
/// part-way leaves its pass open and the next one resumes it (``HistoryCursorStore``).
public enum HistorySyncJob {
    /// Ids worked on at once: enough to keep 40 requests a second going at Apple's latency (about 150 ms).
    public static let defaultConcurrency = 8

    /// Runs the sync; throws a ``JobError`` with the exit code of docs/sync.md (64, 74, 75, 76, 77).
    public static func run(_ options: SyncOptions, log: @escaping @Sendable (String) -> Void) async throws(JobError)
        -> HistorySyncOutcome
    {
        guard options.history || options.statuses else { throw .usage("expected --history, --statuses or both") }
        let loaded = try LoadedConfig.load(path: options.configPath)
        let settings = try SyncSetup.settings(loaded)
        let files = HistoryFiles(root: loaded.resolve(settings.directory))
        var ids: [String] = []
        if let idsFile = options.idsFile { ids += try OriginalTransactionIds.read(file: idsFile) }
        if options.idsFromNotifications {
            let found = try OriginalTransactionIds.read(notificationsIn: files.root + "/notifications")
            ids += found.ids
            if !options.isQuiet, found.without > 0 {
                log("sync: \(found.without) synced notification\(found.without == 1 ? "" : "s") carried no originalTransactionId (skipped)")
            }
        }
        guard options.idsFile != nil || options.idsFromNotifications else {
            throw .usage("--history and --statuses need the ids to ask for: --ids FILE, --ids-from-notifications, or both")
        }
        ids = OriginalTransactionIds.unique(ids)
        let key = try InAppPurchaseKeyLoader.apiKey(loaded, settings: settings, environment: options.environment, warn: log)

        try SyncSetup.createDirectory(files.statusesDirectory)
        let lock = try SyncSetup.lock(files.historyDirectory, now: options.now())
        defer { withExtendedLifetime(lock) {} }
        files.removeLeftovers()
        let store = try HistoryCursorStore(path: files.historyDirectory + "/cursors.sqlite")

        let retryLog: @Sendable (String) -> Void
        if options.isQuiet { retryLog = { _ in } } else { retryLog = log }
        return try await HTTPTransport.withTransport(timeout: options.requestTimeout, maximumBodyBytes: options.maximumResponseBytes) {
            transport throws(JobError) in
            let client = AppStoreAPIClient(
                transport: transport,
                baseURL: settings.baseURL ?? APISettings.defaultBaseURL(environment: loaded.config.app.environment), key: key,
                bundleId: loaded.config.app.bundleId, policy: options.retryPolicy,
                pacer: RequestPacer(requestsPerSecond: Double(settings.requestsPerSecond), onDeparture: options.onRequest),
                now: options.now,
                sleep: options.sleep,
                jitter: options.jitter, log: retryLog)

            let kinds = (options.history ? [HistoryCursorStore.Kind.history] : []) + (options.statuses ? [.statuses] : [])
            var passes: [HistoryCursorStore.Kind: Int64] = [:]
            var finished: [HistoryCursorStore.Kind: Set<String>] = [:]
            for kind in kinds {
                let pass = try store.beginPass(kind)
                passes[kind] = pass.number
                finished[kind] = pass.finished
                if pass.isResumed, !options.isQuiet {
                    log("sync: resuming the \(kind.rawValue) pass \(pass.number): \(pass.finished.count) ids already done")
                }
            }
            let work = ids.compactMap { id -> IdWork? in
                let todo = kinds.filter { finished[$0]?.contains(id) != true }
                return todo.isEmpty ? nil : IdWork(id: id, kinds: todo)
            }
            let fetcher = IdFetcher(
                client: client, files: files, store: store, passes: passes, maxPages: Int(settings.maxPages), log: retryLog)
            let progress = HistoryProgress(total: work.count, client: client, log: options.isQuiet ? nil : log)
            let outcome = Shared(
                HistorySyncOutcome(
                    mode: kinds.map(\.rawValue).joined(separator: "+"), directory: files.root, ids: ids.count,
                    idsResumed: ids.count - work.count))
            let failure = await runConcurrently(work, concurrency: max(options.concurrency, 1)) { item throws(JobError) in
                let result = try await fetcher.fetch(item)
                outcome.withLock { $0.add(result) }
                progress.idDone()
            }
            progress.finish()
            if let failure { throw failure }
            for kind in kinds { try store.finishPass(kind) }
            return outcome.withLock { outcome in
                outcome.requests = client.requests
                outcome.retries = client.retries
                outcome.emitMetrics()
                return outcome
            }
        }
    }

    /// Runs `body` over `items` with at most `concurrency` at once; after the first failure no new item starts,
    /// the ones running finish, and that failure is returned.
    private static func runConcurrently<Item: Sendable>(
        _ items: [Item], concurrency: Int, _ body: @escaping @Sendable (Item) async throws(JobError) -> Void
    ) async -> JobError? {
        let next = Shared(0)
        let firstFailure = Shared<JobError?>(nil)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<min(concurrency, items.count) {
                group.addTask {
                    while firstFailure.withLock({ $0 == nil }) {
                        let index = next.withLock { index in
                            defer { index += 1 }
                            return index
                        }
                        guard index < items.count else { return }
                        do {
                            try await body(items[index])
                        } catch {
                            let failure = error as? JobError ?? .internalError("\(error)")
                            firstFailure.withLock { if $0 == nil { $0 = failure } }
                        }
                    }
                }
            }
        }
        return firstFailure.withLock { $0 }
    }
}

/// One id and what is still to fetch for it.
struct IdWork: Sendable {
    var id: String
    var kinds: [HistoryCursorStore.Kind]
}

extension HistorySyncOutcome {
    /// Adds what one id brought.
    mutating func add(_ result: IdFetcher.Result) {
        transactions += result.transactions
        historyFiles += result.historyFiles
        statuses += result.statuses
        if result.isNotFound { notFound += 1 }
    }
}
