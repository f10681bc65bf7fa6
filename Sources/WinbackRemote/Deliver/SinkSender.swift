import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackJobs

/// POSTs one sink's batches (docs/deliveries.md): the webhook's, Segment's, Braze's. Each attempt's headers are
/// made anew (signatures carry the attempt's time); 429 and 5xx (honouring `Retry-After`), timeouts and dropped
/// connections are retried by ``RetryLoop`` (up to ``RetryPolicy/maxAttempts``, then 75); a redirect or another
/// 4xx is 76 naming the sink and the batch.
struct SinkSender: Sendable {
    /// The sink in messages: `the webhook`, `Segment`, `Braze`.
    let name: String
    let transport: HTTPTransport
    let url: URL
    let policy: RetryPolicy
    let now: @Sendable () -> Date
    let sleep: @Sendable (Double) async -> Void
    let jitter: @Sendable () -> Double
    let log: @Sendable (String) -> Void

    /// Sends `body` (batch `key`) until a 2xx, with `headers(seconds)` (unix time of the attempt) besides
    /// `Content-Type` and `User-Agent`; returns the status and `retries` plus the retries it took.
    func send(
        body: [UInt8], key: String, retries: Int = 0, headers: (Int64) -> [(String, String)]
    ) async throws(JobError) -> (status: Int, retries: Int) {
        let loop = RetryLoop(policy: policy, now: now, sleep: sleep, jitter: jitter, log: log)
        let (name, url, transport) = (name, url, transport)
        let exhausted = { (attempt: Int, problem: String) -> JobError in
            .temporary(
                "\(name) did not acknowledge batch \(key) after \(attempt) attempts (\(problem)); "
                    + "batches acknowledged so far stay delivered, run winback deliver again")
        }
        let (status, taken) = try await loop.run(label: "deliver: \(key)") { (attempt) throws(JobError) -> RetryLoop.Attempt<Int> in
            let seconds = Int64(now().timeIntervalSince1970.rounded(.down))
            let all = [("Content-Type", "application/json"), ("User-Agent", "winback/\(WinbackVersion.current)")] + headers(seconds)
            let response: HTTPResponse
            do throws(HTTPTransport.Failure) {
                response = try await transport.send(method: "POST", url: url, headers: all, body: body)
            } catch {
                return try RetryLoop.noAnswer(
                    error, refused: { .unexpectedResponse("\(name)'s answer to batch \(key) was refused: \($0)") },
                    exhausted: { exhausted(attempt, $0) })
            }
            switch response.status {
            case 200...299:
                return .answered(response.status)
            case 429, 500...599:
                let problem = "HTTP \(response.status)"
                return .temporary(
                    problem: problem, retryAfter: RetryAfter.seconds(response.headers["retry-after"], now: now()),
                    exhausted: exhausted(attempt, problem))
            default:
                throw .unexpectedResponse(
                    "\(name) refused batch \(key) with HTTP \(response.status) (not retried): " + response.bodyExcerpt())
            }
        }
        return (status, retries + taken)
    }
}
