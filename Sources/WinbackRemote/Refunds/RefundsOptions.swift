import Foundation
import WinbackAppStore
import WinbackJobs

/// The inputs of `winback refunds` (docs/refunds.md), with its ``Effects`` (clock, waiting, jitter) injected for tests.
public struct RefundsOptions: Sendable, EffectsHolding {
    /// The config file (it must have `refunds`, and `api` unless a dry run).
    public var configPath: String
    /// `--dry-run`: print each decision as a JSON line; send and record nothing.
    public var isDryRun = false
    /// No progress lines on stderr.
    public var isQuiet = false
    /// `--no-store`: verify every input again instead of replaying the verified store.
    public var usesStore = true
    /// `--ledger`: another ledger than the config's.
    public var ledgerOverride: String?
    /// When requests are tried again.
    public var retryPolicy = RetryPolicy()
    /// Seconds a request may go without progress before it fails (and is retried).
    public var requestTimeout: Double = 60
    /// The largest response body accepted, in bytes (Apple answers 202 with an empty body, an error with a small one).
    public var maximumResponseBytes = 1 << 20
    /// Where dry-run lines go (stdout by default; tests collect them).
    public var printLine: @Sendable (String) -> Void = { print($0) }
    /// The clock, waiting, jitter and nonces (``Effects``).
    public var effects: Effects
    /// Environment variables (`WINBACK_API_KEY_FILE`).
    public var environment: [String: String]

    /// Options with the real clock, real waiting and random jitter unless given.
    public init(
        configPath: String, now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Double) async -> Void = { seconds in try? await Task.sleep(nanoseconds: UInt64(max(seconds, 0) * 1e9))
        },
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.configPath = configPath
        self.effects = Effects(now: now, sleep: sleep, jitter: jitter)
        self.environment = environment
    }
}
