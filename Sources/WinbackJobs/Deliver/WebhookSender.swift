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

    /// Sends `batch` until a 2xx; returns its status and the retries it took.
    func send(_ batch: WebhookBatch) async throws(JobError) -> (status: Int, retries: Int) {
        let body = batch.body
        var attempt = 0
        while true {
            attempt += 1
            let seconds = Int64(now().timeIntervalSince1970.rounded(.down))
            let headers = [
                ("Content-Type", "application/json"), ("Idempotency-Key", batch.idempotencyKey),
                ("Winback-Signature", WebhookBatch.signature(body: body, secret: secret, seconds: seconds)),
                ("User-Agent", "winback/\(WinbackVersion.current)"),
            ]
            let problem: String
            var retryAfter: Double? = nil
            do {
                let response = try await transport.send(method: "POST", url: url, headers: headers, body: body)
                switch response.status {
                case 200...299:
                    return (response.status, attempt - 1)
                case 429, 500...599:
                    problem = "HTTP \(response.status)"
                    retryAfter = RetryAfter.seconds(response.headers["retry-after"], now: now())
                default:
                    throw JobError.unexpectedResponse(
                        "the webhook refused batch \(batch.idempotencyKey) with HTTP \(response.status) (not retried): "
                            + response.bodyExcerpt())
                }
            } catch let failure as HTTPTransport.Failure {
                if failure.isRefused {
                    throw JobError.unexpectedResponse(
                        "the webhook's answer to batch \(batch.idempotencyKey) was refused: \(failure.description)")
                }
                problem = failure.description
            } catch let error as JobError {
                throw error
            } catch {
                throw JobError.internalError("\(error)")
            }
            guard attempt < policy.maxAttempts else {
                throw .temporary(
                    "the webhook did not acknowledge batch \(batch.idempotencyKey) after \(attempt) attempts (\(problem)); "
                        + "batches acknowledged so far stay delivered, run winback deliver again")
            }
            let delay = policy.delay(afterAttempt: attempt, retryAfter: retryAfter, jitter: jitter())
            log(
                "deliver: \(batch.idempotencyKey): \(problem), attempt \(attempt) of \(policy.maxAttempts); retrying in "
                    + String(format: "%.1f", delay) + " s")
            await sleep(delay)
        }
    }
}
