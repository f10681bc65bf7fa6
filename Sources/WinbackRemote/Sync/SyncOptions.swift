import Foundation
import WinbackAppStore
import WinbackJobs

/// The inputs of `winback sync`, with its ``Effects`` (clock, waiting, jitter) injected so tests are deterministic and quick.
public struct SyncOptions: Sendable, EffectsHolding {
    /// The config file, as given on the command line (it must have `api`).
    public var configPath: String
    /// First day, `YYYY-MM-DD` (UTC); default: 2 days before `to`.
    public var from: String?
    /// Last day, `YYYY-MM-DD` (UTC), inclusive; default: yesterday.
    public var to: String?
    /// Fetch and rewrite days already written.
    public var refresh = false
    /// No progress or log lines on stderr.
    public var isQuiet = false
    /// When requests are tried again.
    public var retryPolicy = RetryPolicy()
    /// Seconds a request may go without progress before it fails (and is retried).
    public var requestTimeout: Double = 60
    /// The largest response body accepted, in bytes (nothing is decompressed); a larger one is an unexpected
    /// response (76). Default 8 MiB: an Apple page (20 JWS) is about 100 KB.
    public var maximumResponseBytes = 8 << 20
    /// `--history`: fetch each id's transaction history (docs/sync.md) instead of notifications.
    public var history = false
    /// `--statuses`: fetch each id's subscription statuses (docs/sync.md) instead of notifications.
    public var statuses = false
    /// `--ids`: a file of original transaction ids, one per line (a relative path is from the working directory).
    public var idsFile: String?
    /// `--ids-from-notifications`: every `originalTransactionId` in the synced notifications.
    public var idsFromNotifications = false
    /// Ids worked on at once by `--history/--statuses` (the request pace holds whatever this is).
    public var concurrency = HistorySyncJob.defaultConcurrency
    /// Called as the pace lets each request to Apple go (tests measure the pace with it).
    public var onRequest: (@Sendable () -> Void)?
    /// The clock, waiting, jitter and nonces (``Effects``).
    public var effects: Effects
    /// Environment variables (`WINBACK_API_KEY_FILE`).
    public var environment: [String: String]

    /// Options with the real clock, real waiting and random jitter unless given.
    public init(
        configPath: String, from: String? = nil, to: String? = nil, now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Double) async -> Void = { seconds in try? await Task.sleep(nanoseconds: UInt64(max(seconds, 0) * 1e9))
        },
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.configPath = configPath
        self.from = from
        self.to = to
        self.effects = Effects(now: now, sleep: sleep, jitter: jitter)
        self.environment = environment
    }
}
