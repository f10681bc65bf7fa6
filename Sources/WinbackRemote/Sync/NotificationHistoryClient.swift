import Foundation
import WinbackAppStore
import WinbackCore
import WinbackCrypto
import WinbackJobs

/// Fetches a day of App Store Server Notification history (docs/sync.md): `POST
/// /inApps/v1/notifications/history` with the day's `startDate`/`endDate`, following `paginationToken`
/// while `hasMore`, each request authenticated by a ``ServerAPIToken`` renewed before it expires.
///
/// Requests go through ``AppStoreAPIClient`` (token, pace, retries and exit codes).
struct NotificationHistoryClient {
    /// The path of Get Notification History.
    static let path = "/inApps/v1/notifications/history"

    /// The most bytes of notifications one day may hold in memory before the sync stops (76): a server that
    /// pages new notifications for ever cannot make the command grow past it.
    static let maximumHeldBytes = 128 << 20

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

    /// The requests, their pace, token and retries.
    let client: AppStoreAPIClient
    /// The most pages one day may take (`api.maxPages`).
    let maxPages: Int

    /// Every notification of `day`, all pages; `onPage` sees the pages and notifications so far.
    func fetch(day: SyncDay, onPage: (Int, Int) -> Void) async throws(JobError) -> DayHistory {
        var history = DayHistory()
        let (requestsBefore, retriesBefore) = (client.requests, client.retries)
        var seen = Set<String>()
        var paginationToken: String? = nil
        var tokensSeen = Set<String>()
        var heldBytes = 0
        let body = Array(
            JSONText.render(JSONText.object(["startDate": .integer(day.startMilliseconds), "endDate": .integer(day.endMilliseconds)])).utf8)
        repeat {
            let request = AppStoreAPIClient.Request(
                method: "POST", url: try client.url(path: Self.path, query: paginationToken.map { [("paginationToken", $0)] } ?? []),
                body: body, subject: day.label, expected: "a notification history page")
            guard case .value(let page) = try await client.send(request, parse: NotificationHistoryPage.parse) else {
                throw .internalError("a 404 taken as an answer for \(day)")
            }
            history.pages += 1
            for payload in page.signedPayloads where seen.insert(payload).inserted {
                history.signedPayloads.append(payload)
                heldBytes += payload.utf8.count
            }
            guard heldBytes <= Self.maximumHeldBytes else {
                throw .unexpectedResponse(
                    "the App Store Server API's notification history for \(day) is over \(Self.maximumHeldBytes >> 20) MiB after "
                        + "\(history.pages) pages: stopping (sync the day in parts with --from/--to is not possible below a day; "
                        + "this is far more than any app's day)")
            }
            onPage(history.pages, history.signedPayloads.count)
            paginationToken = page.hasMore ? page.paginationToken : nil
            if let token = paginationToken {
                // A server that hands back a token it gave before would be asked for ever.
                guard tokensSeen.insert(token).inserted else {
                    throw .unexpectedResponse(
                        "the App Store Server API repeated a paginationToken for \(day) after \(history.pages) pages "
                            + "(hasMore stays true): stopping instead of asking for ever")
                }
                guard history.pages < maxPages else {
                    throw .unexpectedResponse(
                        "the App Store Server API still had more pages for \(day) after \(history.pages): stopping "
                            + "(at most api.maxPages = \(maxPages) pages a day)")
                }
            }
        } while paginationToken != nil
        history.requests = client.requests - requestsBefore
        history.retries = client.retries - retriesBefore
        return history
    }
}
