import Foundation

/// What a job takes from the world besides its inputs, in one place so tests make it deterministic and quick:
/// the wall clock, waiting, the backoff's jitter and offer nonces. Every command's options (run, sync, deliver,
/// serve) hold one; the defaults are the real ones.
public struct Effects: Sendable {
    /// The wall clock: the default as-of, lock and ledger times, each offer's timestamp, a signature's `t`.
    public var now: @Sendable () -> Date
    /// Waits `seconds` between attempts (tests record the delays instead).
    public var sleep: @Sendable (_ seconds: Double) async -> Void
    /// Uniform in `[0, 1)`, the backoff's jitter.
    public var jitter: @Sendable () -> Double
    /// A fresh random (version 4) UUID, lower-case, per signed offer.
    public var nonce: @Sendable () -> String

    /// The real clock, waiting, jitter and nonces unless given.
    public init(
        now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Double) async -> Void = { seconds in try? await Task.sleep(nanoseconds: UInt64(max(seconds, 0) * 1e9))
        },
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        nonce: @escaping @Sendable () -> String = RandomNonce.make
    ) {
        self.now = now
        self.sleep = sleep
        self.jitter = jitter
        self.nonce = nonce
    }

    /// The clock in epoch milliseconds.
    public var nowMilliseconds: Int64 { Int64((now().timeIntervalSince1970 * 1000).rounded()) }
}
