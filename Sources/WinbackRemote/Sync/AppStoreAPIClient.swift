import Foundation
import Synchronization
import WinbackAnalytics
import WinbackAppStore
import WinbackCrypto
import WinbackJobs

/// Requests to the App Store Server API with the policy every `winback sync` mode shares (docs/sync.md):
/// a bearer token renewed before it expires, a steady pace (``RequestPacer``), and up to
/// ``RetryPolicy/maxAttempts`` tries while the answer is temporary (429 and 5xx, honouring `Retry-After`; a
/// network failure; a 200 whose body does not parse, as a body cut short does). 401/403 end the sync with 77
/// naming the key id; a redirect or any other status with 76; temporary failures that outlast the tries
/// with 75. Safe to share between concurrent tasks.
final class AppStoreAPIClient: Sendable {
    /// One request: where it goes and what it is about, for messages.
    struct Request: Sendable {
        /// `GET`, `POST` or `PUT`.
        var method: String
        /// The full URL.
        var url: URL
        /// The JSON body of a `POST` or `PUT`.
        var body: [UInt8]?
        /// What the request is for, in messages: `2026-11-09`, `original transaction 2000000123`.
        var subject: String
        /// What a 200's body should be, in messages: `a notification history page`.
        var expected: String
    }

    /// What a request brought: the parsed body, 404 when the caller accepts it as an answer, or another 4xx
    /// (not 401, 403 or 429) with Apple's body when the caller accepts those.
    enum Answer<Value> {
        case value(Value)
        case notFound
        case refused(status: Int, body: [UInt8])
    }

    private let transport: HTTPTransport
    let baseURL: String
    private let key: InAppPurchaseKey
    private let bundleId: String
    private let policy: RetryPolicy
    private let pacer: RequestPacer?
    private let now: @Sendable () -> Date
    private let sleep: @Sendable (Double) async -> Void
    private let jitter: @Sendable () -> Double
    private let log: @Sendable (String) -> Void
    private let state = Mutex(Counters())

    private struct Counters {
        var token: ServerAPIToken?
        var requests = 0
        var retries = 0
    }

    init(
        transport: HTTPTransport, baseURL: String, key: InAppPurchaseKey, bundleId: String, policy: RetryPolicy, pacer: RequestPacer?,
        now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Double) async -> Void,
        jitter: @escaping @Sendable () -> Double, log: @escaping @Sendable (String) -> Void
    ) {
        self.transport = transport
        self.baseURL = baseURL
        self.key = key
        self.bundleId = bundleId
        self.policy = policy
        self.pacer = pacer
        self.now = now
        self.sleep = sleep
        self.jitter = jitter
        self.log = log
    }

    /// Requests sent so far, retries included.
    var requests: Int { state.withLock { $0.requests } }
    /// Requests so far that were retries.
    var retries: Int { state.withLock { $0.retries } }

    /// `baseURL` + `path` + the query, each value percent-encoded (unreserved characters kept).
    func url(path: String, query: [(String, String)] = []) throws(JobError) -> URL {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        var text = baseURL + path
        for (index, (name, value)) in query.enumerated() {
            text += (index == 0 ? "?" : "&") + name + "=" + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)
        }
        guard let url = URL(string: text) else { throw .usage("api.baseURL: cannot form a request URL from '\(baseURL)'") }
        return url
    }

    /// Sends `request` until it has an answer: `parse` of the body of a `success` status (200 unless given),
    /// ``Answer/notFound`` for a 404 when `acceptsNotFound`, ``Answer/refused(status:body:)`` for another 4xx (not
    /// 401, 403 or 429) when `acceptsRefusals` (otherwise each is 76 like any unexpected status). Retried by
    /// ``RetryLoop``; `label` names the job in its log lines (`sync`, `refunds`).
    func send<Value>(
        _ request: Request, success: Int = 200, acceptsNotFound: Bool = false, acceptsRefusals: Bool = false, label: String = "sync",
        parse: ([UInt8]) throws -> Value
    ) async throws(JobError) -> Answer<Value> {
        let subject = request.subject
        let loop = RetryLoop(policy: policy, now: now, sleep: sleep, jitter: jitter, log: log)
        return try await loop.run(label: "\(label): \(subject)") { (attempt) throws(JobError) -> RetryLoop.Attempt<Answer<Value>> in
            await pacer?.waitForTurn()
            state.withLock { counters in
                counters.requests += 1
                if attempt > 1 { counters.retries += 1 }
            }
            let headers = [
                ("Authorization", "Bearer " + (try bearerToken())), ("Accept", "application/json"),
                ("User-Agent", "winback/\(WinbackVersion.current)"),
            ]
            let response: HTTPResponse
            do throws(HTTPTransport.Failure) {
                response = try await transport.send(
                    method: request.method, url: request.url,
                    headers: request.body == nil ? headers : headers + [("Content-Type", "application/json")], body: request.body)
            } catch {
                return try RetryLoop.noAnswer(
                    error, refused: { .unexpectedResponse("the App Store Server API's answer for \(subject) was refused: \($0)") },
                    exhausted: { .temporary("no answer from \(baseURL) for \(subject) after \(attempt) attempts: \($0)") })
            }
            switch response.status {
            case success:
                do {
                    return .answered(.value(try parse(response.body)))
                } catch {
                    // A 200 cut short by a proxy reads as malformed JSON: worth another try, then 76.
                    let reason = HTTPResponse.escaped("\(error)", limit: 200)
                    return .temporary(
                        problem: "HTTP \(success) with a body that is not \(request.expected) (\(reason))", retryAfter: nil,
                        exhausted: .unexpectedResponse(
                            "the App Store Server API answered HTTP \(success) with a body that is not \(request.expected) "
                                + "(\(reason)): \(response.bodyExcerpt())"))
                }
            case 404 where acceptsNotFound:
                return .answered(.notFound)
            case 400...499 where acceptsRefusals && ![401, 403, 429].contains(response.status):
                return .answered(.refused(status: response.status, body: response.body))
            case 300...399:
                throw .unexpectedResponse(
                    "the App Store Server API answered HTTP \(response.status) (a redirect"
                        + (response.headers["location"].map { " to \(HTTPResponse.escaped($0, limit: 200))" } ?? "")
                        + ") for \(subject): not followed, the token is sent to api.baseURL only")
            case 401, 403:
                throw .authentication(
                    "the App Store Server API refused key id \(key.keyId) (HTTP \(response.status)): check api.keyId, api.issuerId, "
                        + "the key file, that the key is an In-App Purchase key of this app's team, and the clock")
            case 429, 500...599:
                return .temporary(
                    problem: "HTTP \(response.status)", retryAfter: RetryAfter.seconds(response.headers["retry-after"], now: now()),
                    exhausted: .temporary(
                        "the App Store Server API kept answering HTTP \(response.status) for \(subject) after \(attempt) attempts: "
                            + response.bodyExcerpt()))
            default:
                throw .unexpectedResponse(
                    "the App Store Server API answered HTTP \(response.status) for \(subject): \(response.bodyExcerpt())")
            }
        }.value
    }

    /// The bearer token, signed anew when the current one has less than 5 minutes left.
    private func bearerToken() throws(JobError) -> String {
        let seconds = Int64(now().timeIntervalSince1970)
        let result: Result<String, JobError> = state.withLock { counters in
            if let token = counters.token, token.isFresh(at: seconds) { return .success(token.value) }
            do {
                let fresh = try ServerAPIToken(key: key, bundleId: bundleId, issuedAt: seconds)
                counters.token = fresh
                return .success(fresh.value)
            } catch {
                return .failure(.internalError("cannot sign the App Store Server API token with key id \(key.keyId)"))
            }
        }
        return try result.get()
    }
}
