import Foundation
import WinbackAppStore

/// The inputs of `winback deliver` (docs/deliveries.md), with the clock, waiting and jitter injected for tests.
public struct DeliverOptions: Sendable {
    /// The config file (it must have `delivery`).
    public var configPath: String
    /// The day whose offers to send, `YYYY-MM-DD`; default: yesterday in the report time zone.
    public var asOf: String?
    /// The output root holding `dt=<D>/` (`--out`); default: the config's `output`.
    public var outputOverride: String?
    /// No progress lines on stderr.
    public var isQuiet = false
    /// When requests are tried again.
    public var retryPolicy = RetryPolicy()
    /// The wall clock: the signature's `t`, the ledger's acknowledgement time.
    public var now: @Sendable () -> Date
    /// Waits between attempts (tests record the delays instead).
    public var sleep: @Sendable (Double) async -> Void
    /// Uniform in `[0, 1)`, the backoff's jitter.
    public var jitter: @Sendable () -> Double
    /// Environment variables (`WINBACK_WEBHOOK_SECRET_FILE`).
    public var environment: [String: String]

    /// Options with the real clock, real waiting and random jitter unless given.
    public init(
        configPath: String, asOf: String? = nil, now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Double) async -> Void = { seconds in try? await Task.sleep(nanoseconds: UInt64(max(seconds, 0) * 1e9))
        },
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.configPath = configPath
        self.asOf = asOf
        self.now = now
        self.sleep = sleep
        self.jitter = jitter
        self.environment = environment
    }
}
