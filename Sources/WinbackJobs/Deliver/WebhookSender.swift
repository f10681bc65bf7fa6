import Foundation
import WinbackCore

/// POSTs webhook batches (docs/deliveries.md) with their `Idempotency-Key` and `Winback-Signature` (signed anew at
/// each attempt), retrying what is temporary as `winback sync` does (429 and 5xx honouring `Retry-After`,
/// timeouts, dropped connections; up to ``RetryPolicy/maxAttempts``, then 75); a redirect or another 4xx is
/// 76 naming the batch.
struct WebhookSender: Sendable {
    let transport: HTTPTransport
    let url: URL
    let secret: [UInt8]
    let policy: RetryPolicy
    let now: @Sendable () -> Date
    let sleep: @Sendable (Double) async -> Void
    let jitter: @Sendable () -> Double
    let log: @Sendable (String) -> Void

    /// Sends `batch` until a 2xx (retried by ``RetryLoop``); returns its status and the retries it took.
    func send(_ batch: WebhookBatch) async throws(JobError) -> (status: Int, retries: Int) {
        let body = batch.body
        let key = batch.idempotencyKey
        let loop = RetryLoop(policy: policy, now: now, sleep: sleep, jitter: jitter, log: log)
        let exhausted = { (attempt: Int, problem: String) -> JobError in
            .temporary(
                "the webhook did not acknowledge batch \(key) after \(attempt) attempts (\(problem)); "
                    + "batches acknowledged so far stay delivered, run winback deliver again")
        }
        let (status, retries) = try await loop.run(label: "deliver: \(key)") { (attempt) throws(JobError) -> RetryLoop.Attempt<Int> in
            let seconds = Int64(now().timeIntervalSince1970.rounded(.down))
            let headers = [
                ("Content-Type", "application/json"), ("Idempotency-Key", key),
                ("Winback-Signature", WebhookBatch.signature(body: body, secret: secret, seconds: seconds)),
                ("User-Agent", "winback/\(WinbackVersion.current)"),
            ]
            let response: HTTPResponse
            do throws(HTTPTransport.Failure) {
                response = try await transport.send(method: "POST", url: url, headers: headers, body: body)
            } catch {
                return try RetryLoop.noAnswer(
                    error, refused: { .unexpectedResponse("the webhook's answer to batch \(key) was refused: \($0)") },
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
                    "the webhook refused batch \(key) with HTTP \(response.status) (not retried): " + response.bodyExcerpt())
            }
        }
        return (status, retries)
    }
}
