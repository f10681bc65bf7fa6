import Foundation
import Synchronization
import Testing
import WinbackCore
import WinbackIO
import WinbackJobs
import WinbackRemote
import WinbackTestSupport

/// Peers that misbehave on purpose (issue 51): a server with a new pagination token or revision on every page
/// is stopped at `api.maxPages`, at the pace of `api.requestsPerSecond`; a webhook answering a gzip bomb is
/// refused unread; `http://` to a host other than loopback needs the config's named opt-in.
@Suite struct HostilePeerTests {
    /// A sync config for `server` with `api.maxPages` and `api.requestsPerSecond`.
    static func config(_ name: String, server: MockAppStoreServer, maxPages: Int, rate: Int) throws -> URL {
        let config = try SyncTests.config(name, server: server)
        let text = try String(contentsOf: config, encoding: .utf8)
            .replacingOccurrences(of: #""api": { "#, with: #""api": { "maxPages": \#(maxPages), "requestsPerSecond": \#(rate), "#)
        try text.write(to: config, atomically: true, encoding: .utf8)
        return config
    }

    /// The error `winback sync --history/--statuses` with `options` ends with, or `nil` when it succeeds.
    static func historyFailure(_ options: SyncOptions) async -> JobError? {
        do {
            _ = try await HistorySyncJob.run(options) { _ in }
            return nil
        } catch {
            return error
        }
    }

    @Test func aNewPaginationTokenOnEveryPageStopsAtMaxPagesAtThePace() async throws {
        let server = try SyncTests.server()
        defer { server.stop() }
        server.inject((0..<20).map { .body(#"{"notificationHistory":[],"hasMore":true,"paginationToken":"token-\#($0)"}"#) })
        let config = try Self.config("hostile-pages", server: server, maxPages: 5, rate: 20)
        var options = SyncTests.options(config, from: "2026-11-09", to: "2026-11-09")
        let departures = Mutex<[ContinuousClock.Instant]>([])
        options.onRequest = { departures.withLock { $0.append(.now) } }
        let error = await SyncTests.failure(options)
        #expect(error?.exitCode == 76 && error?.description.contains("api.maxPages = 5") == true, "\(String(describing: error))")
        #expect((5..<20).contains(server.requests.count), "\(server.requests.count) requests")
        // Every request to Apple keeps the pace: 1.05 s / 20 apart at least.
        let times = departures.withLock { $0 }
        #expect(times.count == server.requests.count)
        for (earlier, later) in zip(times, times.dropFirst()) { #expect(later - earlier >= .milliseconds(52)) }
    }

    @Test func aNewRevisionWithHasMoreForEverStopsAtMaxPages() async throws {
        let server = try HistorySyncTests.server([])
        defer { server.stop() }
        server.inject((0..<20).map { .body(#"{"signedTransactions":[],"hasMore":true,"revision":"revision-\#($0)"}"#) })
        let (config, idsFile) = try HistorySyncTests.setUp("hostile-revisions", server: server, ids: ["2000000000000001"])
        let text = try String(contentsOf: config, encoding: .utf8).replacingOccurrences(
            of: #""api": { "#, with: #""api": { "maxPages": 4, "#)
        try text.write(to: config, atomically: true, encoding: .utf8)
        let error = await Self.historyFailure(HistorySyncTests.options(config, idsFile: idsFile))
        #expect(error?.exitCode == 76 && error?.description.contains("api.maxPages = 4") == true, "\(String(describing: error))")
        #expect((4..<20).contains(server.requests.count), "\(server.requests.count) requests")
    }

    @Test func aHistoryThatKeepsGrowingStopsAtItsMemoryBound() async throws {
        let server = try HistorySyncTests.server([])
        defer { server.stop() }
        // Pages of 1 MB of "transactions" with a new revision each: 8 MiB held is the bound, long before api.maxPages.
        let transactions = Array(repeating: "\"" + String(repeating: "x", count: 100_000) + "\"", count: 10).joined(separator: ",")
        server.inject((0..<12).map { .body(#"{"signedTransactions":[\#(transactions)],"hasMore":true,"revision":"r-\#($0)"}"#) })
        let (config, idsFile) = try HistorySyncTests.setUp("hostile-growth", server: server, ids: ["2000000000000002"])
        let error = await Self.historyFailure(HistorySyncTests.options(config, idsFile: idsFile))
        #expect(error?.exitCode == 76 && error?.description.contains("is over 8 MiB after 9 pages") == true, "\(String(describing: error))")
        // Nine pages, and a retry or two when a loaded machine times a page out; never all twelve offered.
        #expect((9..<12).contains(server.requests.count), "\(server.requests.count) requests")
    }

    @Test func aWebhookAnsweringAGzipBombIsRefusedUnread() async throws {
        let receiver = try MockWebhookReceiver(secret: Array(DeliverTests.secret.utf8))
        defer { receiver.stop() }
        let config = try await DeliverTests.publishedDay("deliver-bomb", receiver: receiver)
        // 256 MiB of spaces in about 256 KB: inflated, it would be held whole.
        var bomb: [UInt8] = []
        let writer = try GzipWriter(level: 9) {
            bomb += $0
            $0.removeAll()
        }
        let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 1 << 20)
        for _ in 0..<256 { try writer.write(chunk) }
        try writer.finish()
        receiver.inject([.compressed(bomb)])
        var error: JobError?
        do {
            _ = try await DeliverJob.run(DeliverTests.options(config)) { _ in }
        } catch let thrown {
            error = thrown
        }
        #expect(
            error?.exitCode == 76 && error?.description.contains("'gzip'-encoded though only identity was asked for") == true,
            "\(String(describing: error))")
    }

    @Test(arguments: [
        ("http://example.com", true), ("http://10.0.0.5:8080/hooks", true), ("http://user@example.com/x", true),
        ("https://example.com", false), ("http://localhost:8080", false), ("http://127.0.0.1/x", false),
        ("http://127.3.4.5:80", false), ("http://[::1]:8080/", false), ("HTTP://Example.com", true),
        ("http://127.0.0.1.example.com/", true),
    ])
    func plainHTTPIsInsecureOffLoopback(_ url: String, _ isInsecure: Bool) {
        #expect(PlainHTTP.isInsecure(url) == isInsecure)
    }

    @Test(arguments: [
        (#""delivery": { "webhook": { "url": "http://hooks.example.com/x", "secretFile": "s" } },"#, "delivery.webhook.url"),
        (#""api": { "keyId": "K", "issuerId": "I", "directory": "d", "baseURL": "http://api.example.com" },"#, "api.baseURL"),
    ])
    func plainHTTPOffLoopbackIsAConfigErrorUnlessOptedIn(_ block: String, _ key: String) throws {
        let refused = try SampleConfig.copy("plain-http") {
            $0.replacingOccurrences(of: #""ledger":"#, with: block + "\n  " + #""ledger":"#)
        }
        var error: (any Error)?
        do {
            _ = try LoadedConfig.load(path: refused.path)
        } catch let thrown {
            error = thrown
        }
        let text = String(describing: error)
        #expect(text.contains(key) && text.contains("allowInsecureHTTP"), "\(text)")
        let member = key == "api.baseURL" ? #""baseURL""# : #""secretFile""#
        let optedIn = block.replacingOccurrences(of: member, with: #""allowInsecureHTTP": true, "# + member)
        let accepted = try SampleConfig.copy("plain-http-opt-in") {
            $0.replacingOccurrences(of: #""ledger":"#, with: optedIn + "\n  " + #""ledger":"#)
        }
        _ = try LoadedConfig.load(path: accepted.path)
    }
}
