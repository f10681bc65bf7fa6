import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackIO
import WinbackJobs

/// Fetches one id's transaction history and/or statuses and makes them durable, then commits the id
/// (``HistorySyncJob``).
struct IdFetcher: Sendable {
    /// What one id brought.
    struct Result: Sendable {
        var transactions = 0
        var historyFiles = 0
        var statuses = 0
        var isNotFound = false
    }

    /// The most bytes of one id's transactions held in memory before the sync stops (76): with the ids worked
    /// on at once (8) and the body limit, a server that pages new transactions for ever cannot make the sync
    /// grow past about 250 MB. 8 MiB is some 2 000 signed transactions.
    static let maximumHeldBytes = 8 << 20

    let client: AppStoreAPIClient
    let files: HistoryFiles
    let store: HistoryCursorStore
    /// The open pass of each kind.
    let passes: [HistoryCursorStore.Kind: Int64]
    /// The most pages one id's history may take (`api.maxPages`).
    let maxPages: Int
    let log: @Sendable (String) -> Void

    /// Does what `work` still needs.
    func fetch(_ work: IdWork) async throws(JobError) -> Result {
        var result = Result()
        for kind in work.kinds {
            var revision: String? = nil
            switch kind {
            case .history: revision = try await history(of: work.id, into: &result)
            case .statuses: try await statuses(of: work.id, into: &result)
            }
            try store.commit(work.id, kind: kind, pass: passes[kind] ?? 0, revision: revision)
        }
        return result
    }

    /// Every page since the kept revision (all of them the first time); the transactions not yet written
    /// become the id's next part. Returns the revision to keep (`nil` for an id Apple does not know).
    private func history(of id: String, into result: inout Result) async throws(JobError) -> String? {
        let parts = files.existingParts(of: id)
        // Without a part on disk the cursor says nothing (the files were removed): ask for everything.
        var revision = parts.isEmpty ? nil : try store.revision(of: id)
        var fetched: [String] = []
        var heldBytes = 0
        var pages = 0
        while true {
            let query = [("sort", "ASCENDING")] + (revision.map { [("revision", $0)] } ?? [])
            let request = AppStoreAPIClient.Request(
                method: "GET", url: try client.url(path: "/inApps/v2/history/" + id, query: query), body: nil,
                subject: "original transaction \(id)", expected: "a transaction history page")
            guard case .value(let page) = try await client.send(request, acceptsNotFound: true, parse: TransactionHistoryPage.parse) else {
                notFound(id, what: "transaction history", into: &result)
                return nil
            }
            pages += 1
            fetched += page.signedTransactions
            heldBytes += page.signedTransactions.reduce(0) { $0 + $1.utf8.count }
            guard heldBytes <= Self.maximumHeldBytes else {
                throw .unexpectedResponse(
                    "the App Store Server API's transaction history of \(id) is over \(Self.maximumHeldBytes >> 20) MiB after \(pages) "
                        + "pages: stopping (far more than any subscription's history)")
            }
            guard page.hasMore else {
                revision = page.revision
                break
            }
            guard page.revision != revision, pages < maxPages else {
                throw .unexpectedResponse(
                    "the App Store Server API's transaction history of \(id) still had more after \(pages) pages with revision "
                        + "'\(HTTPResponse.escaped(page.revision, limit: 80))': stopping instead of asking for ever "
                        + "(at most api.maxPages = \(maxPages) pages an id)")
            }
            revision = page.revision
        }
        let written = try HistoryFiles.writtenTransactions(in: parts)
        var seen = written
        let fresh = fetched.filter { seen.insert($0).inserted }
        if !fresh.isEmpty {
            let path = files.historyPart(parts.count + 1, of: id)
            try SyncSetup.createDirectory((path as NSString).deletingLastPathComponent)
            try FileSystem.writeAtomically(try HistoryFiles.historyPart(fresh, path: path), to: path)
            result.transactions += fresh.count
            result.historyFiles += 1
        }
        return revision
    }

    /// The id's statuses, replacing its file.
    private func statuses(of id: String, into result: inout Result) async throws(JobError) {
        let request = AppStoreAPIClient.Request(
            method: "GET", url: try client.url(path: "/inApps/v1/subscriptions/" + id), body: nil,
            subject: "original transaction \(id)", expected: "a subscription statuses response")
        guard
            case .value(let body) = try await client.send(
                request, acceptsNotFound: true,
                parse: { body throws(MalformedAPIResponse) in
                    _ = try APIResponseBody.checkStatuses(body)
                    return body
                })
        else {
            notFound(id, what: "subscription statuses", into: &result)
            return
        }
        let path = files.statuses(of: id)
        try SyncSetup.createDirectory((path as NSString).deletingLastPathComponent)
        let compressed: [UInt8]
        do {
            compressed = try GzipWriter.compress(body)
        } catch {
            throw .internalError("cannot compress the statuses of \(id) (\(error))")
        }
        try FileSystem.writeAtomically(compressed, to: path)
        result.statuses += 1
    }

    private func notFound(_ id: String, what: String, into result: inout Result) {
        if !result.isNotFound {
            log("warning: the App Store Server API does not know original transaction \(id) (HTTP 404 for its \(what)): skipped")
        }
        result.isNotFound = true
    }
}
