import Foundation
import WinbackAppStore
import WinbackJobs

/// The one retry loop below every outgoing request (docs/sync.md, docs/deliveries.md): Apple's API (sync,
/// history) and every delivery sink. Each caller sends one attempt and says what it came to; the loop waits
/// (the server's `Retry-After`, else ``RetryPolicy``'s backoff with jitter), logs, and tries again up to
/// ``RetryPolicy/maxAttempts`` attempts in all. Nothing below it retries: the HTTP client sends each request
/// once (``HTTPTransport``).
struct RetryLoop: Sendable {
    /// What one attempt came to.
    enum Attempt<Value> {
        /// An answer: the loop returns it.
        case answered(Value)
        /// A temporary failure (429, 5xx, a network fault, a body cut short): `problem` names it in the log
        /// line, `retryAfter` is the server's wait in seconds, `exhausted` is thrown when it was the last attempt.
        case temporary(problem: String, retryAfter: Double?, exhausted: JobError)
    }

    /// Attempts, backoff and the longest `Retry-After` honoured.
    let policy: RetryPolicy
    /// The clock (`Retry-After` dates are read against it).
    let now: @Sendable () -> Date
    /// Waits this many seconds (tests record the waits instead).
    let sleep: @Sendable (Double) async -> Void
    /// Uniform in `[0, 1)`: spreads retrying clients apart.
    let jitter: @Sendable () -> Double
    /// Where each retry is announced (stderr).
    let log: @Sendable (String) -> Void

    /// Runs `attempt` (given its number, from 1) until it answers or throws, or the attempts run out (its
    /// `exhausted` error). `label` begins each retry's log line (`sync: 2026-11-09`). Returns the answer and the
    /// retries it took.
    func run<Value>(
        label: String, _ attempt: (Int) async throws(JobError) -> Attempt<Value>
    ) async throws(JobError) -> (value: Value, retries: Int) {
        var number = 0
        while true {
            number += 1
            switch try await attempt(number) {
            case .answered(let value):
                return (value, number - 1)
            case .temporary(let problem, let retryAfter, let exhausted):
                guard number < policy.maxAttempts else { throw exhausted }
                let delay = policy.delay(afterAttempt: number, retryAfter: retryAfter, jitter: jitter())
                log(
                    "\(label): \(problem), attempt \(number) of \(policy.maxAttempts); retrying in " + String(format: "%.1f", delay) + " s"
                        + (retryAfter == nil ? "" : " (Retry-After)"))
                await sleep(delay)
            }
        }
    }

    /// The temporary failure of a request that got no answer (`failure` is not a refusal), or the refusal as 76.
    static func noAnswer<Value>(
        _ failure: HTTPTransport.Failure, refused: (String) -> JobError, exhausted: (String) -> JobError
    ) throws(JobError) -> Attempt<Value> {
        if failure.isRefused { throw refused(failure.description) }
        return .temporary(problem: failure.description, retryAfter: nil, exhausted: exhausted(failure.description))
    }
}
