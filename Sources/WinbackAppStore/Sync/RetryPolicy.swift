/// When `winback sync` tries a request again (docs/sync.md): a 429, a 5xx or a network failure is retried up
/// to ``maxAttempts`` attempts in all, after the server's `Retry-After` when it gave one, otherwise after
/// an exponential backoff with jitter.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts per request, the first included.
    public var maxAttempts: Int
    /// The backoff before the second attempt, seconds; it doubles with each attempt.
    public var baseDelay: Double
    /// The longest backoff, seconds.
    public var maxDelay: Double
    /// The longest `Retry-After` honoured, seconds (a longer one is waited this long).
    public var maxRetryAfter: Double

    /// The policy of docs/sync.md: 6 attempts, backoff 1, 2, 4, 8, 16 s (each with jitter), `Retry-After` up to 5 minutes.
    public init(maxAttempts: Int = 6, baseDelay: Double = 1, maxDelay: Double = 60, maxRetryAfter: Double = 300) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    /// Seconds to wait after failed attempt `attempt` (1-based). `retryAfter` (seconds, from the response)
    /// wins when present; otherwise `baseDelay × 2^(attempt−1)`, capped at `maxDelay`, scaled by
    /// `0.5 + 0.5 × jitter` ("equal jitter": `jitter` is uniform in `[0, 1)`), so retrying clients spread out.
    public func delay(afterAttempt attempt: Int, retryAfter: Double?, jitter: Double) -> Double {
        if let retryAfter { return min(max(retryAfter, 0), maxRetryAfter) }
        var exponential = baseDelay
        for _ in 1..<max(attempt, 1) { exponential = min(exponential * 2, maxDelay) }
        return min(exponential, maxDelay) * (0.5 + 0.5 * min(max(jitter, 0), 1))
    }
}
