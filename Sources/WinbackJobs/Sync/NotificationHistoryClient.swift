import Foundation
import WinbackCore
import WinbackCrypto

/// Fetches a day of App Store Server Notification history (SPEC §15): `POST
/// /inApps/v1/notifications/history` with the day's `startDate`/`endDate`, following `paginationToken`
/// while `hasMore`, each request authenticated by a ``ServerAPIToken`` renewed before it expires.
///
/// Each request is tried up to ``RetryPolicy/maxAttempts`` times when the answer is temporary (429, 5xx,
/// a network failure, a 200 whose body is cut short). 401/403 end the sync with exit 77 naming the key id;
/// any other status with 76; temporary failures that outlast the attempts with 75.
struct NotificationHistoryClient {
    /// The path of Get Notification History.
    static let path = "/inApps/v1/notifications/history"

    /// The most pages one day may take (Apple pages 20 notifications: 2 million notifications a day).
    static let maximumPagesPerDay = 100_000

    /// What fetching a day took.
    struct DayHistory: Sendable {
        /// The day's `signedPayload`s in the order Apple sent them, each once.
        var signedPayloads: [String] = []
        /// Pages received.
        var pages = 0
        /// Requests sent, retries included.
        var requests = 0
        /// Requests that were retries.
        var retries = 0
    }

    let transport: HTTPTransport
    let baseURL: String
    let key: InAppPurchaseKey
    let bundleId: String
    let policy: RetryPolicy
    /// The current time (the token's `iat`, `Retry-After` dates).
    let now: @Sendable () -> Date
    /// Waits a number of seconds (tests record instead of waiting).
    let sleep: @Sendable (Double) async -> Void
    /// Uniform in `[0, 1)`: the backoff's jitter.
    let jitter: @Sendable () -> Double
    /// One line per retry or page, for the log.
    let log: (String) -> Void

    private var token: ServerAPIToken?

    init(
        transport: HTTPTransport, baseURL: String, key: InAppPurchaseKey, bundleId: String, policy: RetryPolicy,
        now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Double) async -> Void, jitter: @escaping @Sendable () -> Double,
        log: @escaping (String) -> Void
    ) {
        self.transport = transport
        self.baseURL = baseURL
        self.key = key
        self.bundleId = bundleId
        self.policy = policy
        self.now = now
        self.sleep = sleep
        self.jitter = jitter
        self.log = log
    }

    /// Every notification of `day`, all pages; `onPage` sees the pages and notifications so far.
    mutating func fetch(day: SyncDay, onPage: (Int, Int) -> Void) async throws(JobError) -> DayHistory {
        var history = DayHistory()
        var seen = Set<String>()
        var paginationToken: String? = nil
        var tokensSeen = Set<String>()
        let body = Array(
            JSONText.render(JSONText.object(["startDate": .integer(day.startMilliseconds), "endDate": .integer(day.endMilliseconds)])).utf8)
        repeat {
            let page = try await fetchPage(day: day, body: body, paginationToken: paginationToken, history: &history)
            history.pages += 1
            for payload in page.signedPayloads where seen.insert(payload).inserted { history.signedPayloads.append(payload) }
            onPage(history.pages, history.signedPayloads.count)
            paginationToken = page.hasMore ? page.paginationToken : nil
            if let token = paginationToken {
                // A server that hands back a token it gave before would be asked for ever.
                guard tokensSeen.insert(token).inserted else {
                    throw .unexpectedResponse(
                        "the App Store Server API repeated a paginationToken for \(day) after \(history.pages) pages "
                            + "(hasMore stays true): stopping instead of asking for ever")
                }
                guard history.pages < Self.maximumPagesPerDay else {
                    throw .unexpectedResponse(
                        "the App Store Server API still had more pages for \(day) after \(history.pages): stopping "
                            + "(at most \(Self.maximumPagesPerDay) pages a day)")
                }
            }
        } while paginationToken != nil
        return history
    }

    /// One page, retried while the answer is temporary.
    private mutating func fetchPage(
        day: SyncDay, body: [UInt8], paginationToken: String?, history: inout DayHistory
    ) async throws(JobError) -> NotificationHistoryPage {
        let url = try requestURL(paginationToken: paginationToken)
        var attempt = 0
        while true {
            attempt += 1
            history.requests += 1
            if attempt > 1 { history.retries += 1 }
            let headers = [
                ("Authorization", "Bearer " + (try bearerToken())), ("Content-Type", "application/json"), ("Accept", "application/json"),
                ("User-Agent", "winback/\(WinbackVersion.current)"),
            ]
            let problem: String
            var retryAfter: Double? = nil
            var finalError: JobError
            do {
                let response = try await transport.post(url: url, headers: headers, body: body)
                switch response.status {
                case 200:
                    do {
                        return try NotificationHistoryPage.parse(response.body)
                    } catch {
                        // A 200 cut short by a proxy reads as malformed JSON: worth another try, then 76.
                        problem =
                            "HTTP 200 with a body that is not a notification history page (\(HTTPResponse.escaped("\(error)", limit: 200)))"
                        finalError = .unexpectedResponse(
                            "the App Store Server API answered HTTP 200 with a body that is not a notification history page "
                                + "(\(HTTPResponse.escaped("\(error)", limit: 200))): \(response.bodyExcerpt())")
                    }
                case 300...399:
                    throw JobError.unexpectedResponse(
                        "the App Store Server API answered HTTP \(response.status) (a redirect"
                            + (response.headers["location"].map { " to \(HTTPResponse.escaped($0, limit: 200))" } ?? "")
                            + ") for \(day): not followed, the token is sent to api.baseURL only")
                case 401, 403:
                    throw JobError.authentication(
                        "the App Store Server API refused key id \(key.keyId) (HTTP \(response.status)): check api.keyId, api.issuerId, "
                            + "the key file, that the key is an In-App Purchase key of this app's team, and the clock")
                case 429, 500...599:
                    problem = "HTTP \(response.status)"
                    retryAfter = RetryAfter.seconds(response.headers["retry-after"], now: now())
                    finalError = .temporary(
                        "the App Store Server API kept answering HTTP \(response.status) for \(day) after \(attempt) attempts: "
                            + response.bodyExcerpt())
                default:
                    throw JobError.unexpectedResponse(
                        "the App Store Server API answered HTTP \(response.status) for \(day): \(response.bodyExcerpt())")
                }
            } catch let failure as HTTPTransport.Failure {
                if failure.isTooLarge {
                    throw JobError.unexpectedResponse("the App Store Server API's answer for \(day) was refused: \(failure.description)")
                }
                problem = failure.description
                finalError = .temporary("no answer from \(baseURL) for \(day) after \(attempt) attempts: \(failure.description)")
            } catch let error as JobError {
                throw error
            } catch {
                throw JobError.internalError("\(error)")
            }
            guard attempt < policy.maxAttempts else { throw finalError }
            let delay = policy.delay(afterAttempt: attempt, retryAfter: retryAfter, jitter: jitter())
            log(
                "sync: \(day): \(problem), attempt \(attempt) of \(policy.maxAttempts); retrying in "
                    + String(format: "%.1f", delay) + " s" + (retryAfter == nil ? "" : " (Retry-After)"))
            await sleep(delay)
        }
    }

    /// The request URL, with the pagination token as a query parameter.
    private func requestURL(paginationToken: String?) throws(JobError) -> URL {
        var text = baseURL + Self.path
        if let paginationToken {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            let encoded = paginationToken.addingPercentEncoding(withAllowedCharacters: allowed) ?? paginationToken
            text += "?paginationToken=" + encoded
        }
        guard let url = URL(string: text) else { throw .usage("api.baseURL: cannot form a request URL from '\(baseURL)'") }
        return url
    }

    /// The bearer token, signed anew when the current one has less than 5 minutes left.
    private mutating func bearerToken() throws(JobError) -> String {
        let seconds = Int64(now().timeIntervalSince1970)
        if let token, token.isFresh(at: seconds) { return token.value }
        do {
            let fresh = try ServerAPIToken(key: key, bundleId: bundleId, issuedAt: seconds)
            token = fresh
            return fresh.value
        } catch {
            throw .internalError("cannot sign the App Store Server API token with key id \(key.keyId)")
        }
    }
}
