import Foundation
import WinbackAppStore
import WinbackJobs

/// The inputs of `winback deliver` (docs/deliveries.md), with its ``Effects`` (clock, waiting, jitter) injected for tests.
public struct DeliverOptions: Sendable, EffectsHolding {
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
    /// The clock, waiting, jitter and nonces (``Effects``).
    public var effects: Effects
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
        self.effects = Effects(now: now, sleep: sleep, jitter: jitter)
        self.environment = environment
    }
}
