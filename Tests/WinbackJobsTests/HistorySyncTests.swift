import Crypto
import Foundation
import Synchronization
import Testing
import WinbackAppStore
import WinbackCrypto
import WinbackIO
import WinbackJobs
import WinbackRemote
import WinbackTestSupport

/// `winback sync --history/--statuses` (docs/sync.md) against ``MockAppStoreServer`` on loopback: each id's history
/// fetched once, then only what changed; statuses; 404 skipped; the pace held in every second; faults
/// retried; a killed sync resumed without a line written twice.
@Suite struct HistorySyncTests {
    /// The sample's signed transactions by original transaction id, in file order.
    static func sampleTransactions() throws -> [String: [String]] {
        var byId: [String: [String]] = [:]
        for part in ["part-0", "part-1"] {
            let file = Fixtures.packageRoot.appendingPathComponent("sample-data/exports/transactions/\(part).ndjson.gz")
            for line in try Gunzip.text(Array(try Data(contentsOf: file))).split(separator: "\n") {
                guard case .string(let jws)? = try JSONParser.parse(Array(line.utf8))["signedTransactionInfo"],
                    let id = MockAppStoreServer.originalTransactionId(of: jws)
                else { throw FixtureError(description: "unreadable sample transaction") }
                byId[id, default: []].append(jws)
            }
        }
        return byId
    }

    /// `count` ids of the sample with at least two transactions, in order.
    static func ids(_ count: Int, from byId: [String: [String]]) -> [String] {
        Array(byId.keys.filter { (byId[$0]?.count ?? 0) >= 2 }.sorted().prefix(count))
    }

    static func server(_ transactions: [String]) throws -> MockAppStoreServer {
        try MockAppStoreServer(
            publicKey: SyncTests.publicKey(), keyId: SyncTests.keyId, issuerId: SyncTests.issuerId, bundleId: SyncTests.bundleId,
            notifications: [], transactions: transactions, historyPageSize: 2)
    }

    /// A sample config for `server`, pacing at `rate` requests a second, and an ids file of `ids`.
    static func setUp(_ name: String, server: MockAppStoreServer, rate: Int = 40, ids: [String]) throws -> (config: URL, idsFile: URL) {
        let config = try SyncTests.config(name, server: server)
        let text = try String(contentsOf: config, encoding: .utf8)
            .replacingOccurrences(of: #""api": { "#, with: #""api": { "requestsPerSecond": \#(rate), "#)
        try text.write(to: config, atomically: true, encoding: .utf8)
        let idsFile = config.deletingLastPathComponent().appendingPathComponent("ids.txt")
        try (ids.joined(separator: "\n") + "\n").write(to: idsFile, atomically: true, encoding: .utf8)
        return (config, idsFile)
    }

    static func options(_ config: URL, idsFile: URL, history: Bool = true, statuses: Bool = false, sleeps: SleepLog? = nil) -> SyncOptions {
        var options = SyncTests.options(config, from: nil, to: nil, sleeps: sleeps)
        options.history = history
        options.statuses = statuses
        options.idsFile = idsFile.path
        return options
    }

    /// The `signedTransactionInfo` lines of one history part.
    static func lines(_ file: URL) throws -> [String] {
        try Gunzip.text(Array(try Data(contentsOf: file))).split(separator: "\n").map { line in
            guard case .string(let jws)? = try JSONParser.parse(Array(line.utf8))["signedTransactionInfo"] else {
                throw FixtureError(description: "a line without signedTransactionInfo in \(file.path)")
            }
            return jws
        }
    }

    /// `sync/history/<shard>/<id>[.<n>].ndjson.gz`, the shard being the first two hex digits of SHA-256 of the id.
    static func part(_ config: URL, _ id: String, _ number: Int = 1) -> URL {
        let shard = String(SHA256.hash(data: Array(id.utf8)).map { String(format: "%02x", $0) }.joined().prefix(2))
        return config.deletingLastPathComponent().appendingPathComponent(
            "sync/history/\(shard)/\(id)\(number == 1 ? "" : ".\(number)").ndjson.gz")
    }

    /// Every history line written for `id`, over all its parts.
    static func allLines(_ config: URL, _ id: String) throws -> [String] {
        var lines: [String] = []
        var number = 1
        while FileManager.default.fileExists(atPath: part(config, id, number).path) {
            lines += try Self.lines(part(config, id, number))
            number += 1
        }
        return lines
    }

    @Test func fetchesEachHistoryOnceThenOnlyWhatChangedAndTheFilesVerify() async throws {
        let byId = try Self.sampleTransactions()
        let ids = Self.ids(30, from: byId)
        let first = ids.flatMap { byId[$0]?.dropLast() ?? [] }
        let server = try Self.server(first)
        defer { server.stop() }
        let unknown = "9999999999999999"
        let (config, idsFile) = try Self.setUp("history", server: server, ids: ids + [unknown, "", ids[0]])

        let outcome = try await HistorySyncJob.run(Self.options(config, idsFile: idsFile, statuses: true)) { _ in }
        #expect(outcome.ids == 31 && outcome.notFound == 1 && outcome.idsResumed == 0)
        #expect(outcome.transactions == first.count && outcome.historyFiles == 30 && outcome.statuses == 30 && outcome.retries == 0)
        for id in ids {
            let expected = Array(byId[id]?.dropLast() ?? [])
            #expect(try Self.lines(Self.part(config, id)) == expected, "history of \(id)")
            #expect(!FileManager.default.fileExists(atPath: Self.part(config, id, 2).path))
            // Asked once from the start, then page by page: ⌈n/2⌉ history requests and one statuses request.
            let history = server.requests.filter { $0.target.hasPrefix("/inApps/v2/history/\(id)?") }
            #expect(history.count == max((expected.count + 1) / 2, 1) && history.allSatisfy { $0.method == "GET" })
            #expect(history.filter { !$0.target.contains("revision=") }.count == 1)
            #expect(server.requests.filter { $0.target == "/inApps/v1/subscriptions/\(id)" }.count == 1)
        }
        #expect(outcome.requests == server.requests.count)

        // New transactions (the last of each id) arrive; the next sync asks from each id's revision and writes
        // only them, as part 2.
        server.add(transactions: ids.compactMap { byId[$0]?.last })
        let before = server.requests.count
        let again = try await HistorySyncJob.run(Self.options(config, idsFile: idsFile)) { _ in }
        #expect(again.transactions == 30 && again.historyFiles == 30 && again.notFound == 1 && again.statuses == 0)
        for id in ids {
            #expect(try Self.lines(Self.part(config, id, 2)) == [byId[id]?.last].compactMap { $0 })
        }
        let second = server.requests.dropFirst(before).filter { $0.target.hasPrefix("/inApps/v2/history/") }
        #expect(second.allSatisfy { $0.target.contains("revision=h") || $0.target.contains(unknown) })

        // What sync wrote is what `winback run` reads: every record verifies.
        let verifyConfig = config.deletingLastPathComponent().appendingPathComponent("read-synced.json")
        try String(contentsOf: config, encoding: .utf8).replacing(
            #/"inputs": \[[^\]]*\]/#, with: #""inputs": ["sync/history/*/*.ndjson.gz", "sync/statuses/*/*.json.gz"]"#
        )
        .write(to: verifyConfig, atomically: true, encoding: .utf8)
        let verify = try CommandRunner.run(["verify", "--config", verifyConfig.path, "--quiet"])
        #expect(verify.exitCode == 0, "\(verify.stderr)")
        let records = try #require(try JSONParser.parse(Array(verify.stdout.utf8))["records"])
        #expect(records["rejected"] == .integer(0) && records["read"] == .integer(Int64(first.count + 30 + 30)), "\(verify.stdout)")
    }

    /// The pace holds in every second, retries included, with eight ids in flight: as requests leave (what
    /// the pacer decides) never more than the rate; as the server accepts them, within the scheduling noise of
    /// a test machine running every suite at once (production allows 50 ms of network jitter; docs/sync.md).
    @Test func neverMoreThanTheConfiguredRateInAnySecond() async throws {
        let byId = try Self.sampleTransactions()
        let ids = Self.ids(24, from: byId)
        let server = try Self.server(ids.flatMap { byId[$0] ?? [] })
        defer { server.stop() }
        server.inject([.none, .status(500), .none, .status(503)])
        let (config, idsFile) = try Self.setUp("history-rate", server: server, rate: 10, ids: ids)
        let sent = InstantLog()
        var options = Self.options(config, idsFile: idsFile, history: false, statuses: true)
        options.onRequest = { sent.instants.withLock { $0.append(.now) } }
        let outcome = try await HistorySyncJob.run(options) { _ in }
        #expect(outcome.statuses == 24 && outcome.retries == 2 && outcome.requests == 26)
        let leaving = sent.instants.withLock { $0 }.sorted()
        #expect(leaving.count == 26 && Self.busiestSecond(leaving) <= 10, "\(Self.busiestSecond(leaving)) requests left in one second")
        let accepted = server.requests.map(\.acceptedAt).sorted()
        // At the server a stalled accept thread can let a few queued connections through at once: a bound, not the pace.
        #expect(Self.busiestSecond(accepted) <= 13, "\(Self.busiestSecond(accepted)) requests reached the server in one second")
        let span = leaving[leaving.count - 1] - leaving[0]
        // 26 requests at 10 a second (paced as 9.5): at least 25 intervals of 105 ms. (How close to that the
        // concurrent ids come is measured in docs/sync.md, not asserted: a loaded test machine stretches it.)
        #expect(span >= .milliseconds(2625), "\(span)")
    }

    /// The most instants in any window of one second.
    static func busiestSecond(_ sorted: [ContinuousClock.Instant]) -> Int {
        var busiest = 0
        for (index, start) in sorted.enumerated() {
            busiest = max(busiest, sorted[index...].prefix { $0 < start + .seconds(1) }.count)
        }
        return busiest
    }

    /// 429 with `Retry-After` as an instant in milliseconds, a 500 and a body cut short: retried, and the
    /// sync ends complete.
    @Test func temporaryFaultsAreRetriedHonouringRetryAfterInMilliseconds() async throws {
        let byId = try Self.sampleTransactions()
        let ids = Self.ids(3, from: byId)
        let server = try Self.server(ids.flatMap { byId[$0] ?? [] })
        defer { server.stop() }
        let instant = Int64(SyncTests.now.timeIntervalSince1970 * 1000) + 7_000
        server.inject([.status(429, retryAfter: "\(instant)"), .status(500), .truncatedBody])
        let (config, idsFile) = try Self.setUp("history-faults", server: server, ids: ids)
        let sleeps = SleepLog()
        var options = Self.options(config, idsFile: idsFile, sleeps: sleeps)
        options.concurrency = 1
        let outcome = try await HistorySyncJob.run(options) { _ in }
        #expect(outcome.retries == 3 && outcome.transactions == ids.reduce(0) { $0 + (byId[$1]?.count ?? 0) })
        #expect(sleeps.seconds.withLock { $0 } == [7, 0.015, 0.03])
        for id in ids { #expect(try Self.allLines(config, id) == byId[id]) }
    }

    /// A sync stopped part-way (here by a 401: 77) leaves its pass open; the next resumes it, skipping the ids
    /// done. With the cursors lost, the files themselves keep every line from being written twice.
    @Test func aStoppedSyncResumesAndNeverWritesALineTwice() async throws {
        let byId = try Self.sampleTransactions()
        let ids = Self.ids(20, from: byId)
        let server = try Self.server(ids.flatMap { byId[$0] ?? [] })
        defer { server.stop() }
        server.inject(Array(repeating: .none, count: 12) + [.status(401)])
        let (config, idsFile) = try Self.setUp("history-resume", server: server, ids: ids)
        var stopped: JobError?
        do {
            _ = try await HistorySyncJob.run(Self.options(config, idsFile: idsFile)) { _ in }
        } catch {
            stopped = error
        }
        #expect(stopped?.exitCode == 77)
        let resumed = try await HistorySyncJob.run(Self.options(config, idsFile: idsFile)) { _ in }
        #expect(resumed.idsResumed > 0 && resumed.idsResumed < 20, "\(resumed.summaryLine)")
        for id in ids { #expect(try Self.allLines(config, id) == byId[id], "history of \(id)") }

        // The cursors lost (a kill between a part's rename and its commit, for every id at once): a new pass
        // asks from the start, finds every transaction already written and writes nothing.
        try FileManager.default.removeItem(at: config.deletingLastPathComponent().appendingPathComponent("sync/history/cursors.sqlite"))
        let afterLoss = try await HistorySyncJob.run(Self.options(config, idsFile: idsFile)) { _ in }
        #expect(afterLoss.transactions == 0 && afterLoss.historyFiles == 0 && afterLoss.idsResumed == 0)
        for id in ids { #expect(try Self.allLines(config, id) == byId[id]) }
    }

    /// `kill -9` of the command at any point, then run again: every transaction once, nothing missing.
    @Test func killNineThenRunAgain() throws {
        let byId = try Self.sampleTransactions()
        let ids = Self.ids(40, from: byId)
        let server = try Self.server(ids.flatMap { byId[$0] ?? [] })
        defer { server.stop() }
        let (config, idsFile) = try Self.setUp("history-kill", server: server, rate: 8, ids: ids)
        let arguments = ["sync", "--config", config.path, "--history", "--statuses", "--ids", idsFile.path, "--quiet"]
        let process = try CommandRunner.start(arguments)
        // Kill it once some ids are written (and others not yet).
        for _ in 0..<200 where server.requests.count < 12 { Thread.sleep(forTimeInterval: 0.05) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(server.requests.count < ids.count * 2, "the first sync finished before it was killed")

        let again = try CommandRunner.run(arguments)
        #expect(again.exitCode == 0, "\(again.stderr)")
        let summary = try JSONParser.parse(Array(again.stdout.utf8))
        #expect(summary["ids"] == .integer(40) && summary["notFound"] == .integer(0), "\(again.stdout)")
        for id in ids {
            #expect(try Self.allLines(config, id) == byId[id], "history of \(id)")
            let shard = Self.part(config, id).deletingLastPathComponent().lastPathComponent
            let statuses = config.deletingLastPathComponent().appendingPathComponent("sync/statuses/\(shard)/\(id).json.gz")
            #expect(FileManager.default.fileExists(atPath: statuses.path))
        }
    }

    /// `--ids-from-notifications`: every original transaction id of the synced notifications, once each.
    @Test func idsFromTheSyncedNotifications() async throws {
        let server = try SyncTests.server(pageSize: 20)
        defer { server.stop() }
        server.add(transactions: try Self.sampleTransactions().values.flatMap { $0 })
        let config = try SyncTests.config("history-from-notifications", server: server)
        _ = try await SyncJob.run(SyncTests.options(config, from: "2026-09-21", to: "2026-11-19")) { _ in }
        let start = InstantFormat.days(year: 2026, month: 9, day: 21) * 86_400_000
        let end = InstantFormat.days(year: 2026, month: 11, day: 20) * 86_400_000
        let expected = Set(
            try SyncTests.sampleNotifications().filter { start <= $0.signedDate && $0.signedDate < end }.compactMap {
                notification -> String? in
                let segments = notification.signedPayload.split(separator: ".")
                guard segments.count == 3, let payload = Base64.decodeURL(String(segments[1])),
                    case .string(let transaction)? = try JSONParser.parse(payload)["data"]?["signedTransactionInfo"]
                else { return nil }
                return MockAppStoreServer.originalTransactionId(of: transaction)
            })
        #expect(expected.count > 5)
        var options = SyncTests.options(config, from: nil, to: nil)
        options.statuses = true
        options.idsFromNotifications = true
        let outcome = try await HistorySyncJob.run(options) { _ in }
        #expect(outcome.ids == expected.count && outcome.statuses + outcome.notFound == expected.count, "\(outcome.summaryLine)")
        let prefix = "/inApps/v1/subscriptions/"
        let asked = Set(server.requests.filter { $0.target.hasPrefix(prefix) }.map { String($0.target.dropFirst(prefix.count)) })
        #expect(asked == expected)
    }

    @Test(arguments: [
        ("123\nabc\n", "ids.txt:2: expected an original transaction id"), ("1\n\n12345678901234567890123456789012345\n", "ids.txt:3:"),
    ])
    func aBadIdsFileExits64NamingTheLine(text: String, words: String) async throws {
        let server = try Self.server([])
        defer { server.stop() }
        let (config, idsFile) = try Self.setUp("history-bad-ids", server: server, ids: [])
        try text.write(to: idsFile, atomically: true, encoding: .utf8)
        var error: JobError?
        do {
            _ = try await HistorySyncJob.run(Self.options(config, idsFile: idsFile)) { _ in }
        } catch let thrown {
            error = thrown
        }
        #expect(error?.exitCode == 64 && error?.description.contains(words) == true, "\(String(describing: error))")
        #expect(server.requests.isEmpty)
    }

    @Test(arguments: [0, 51])
    func aRateOutsideOneToFiftyExits64NamingTheKey(rate: Int) async throws {
        let server = try Self.server([])
        defer { server.stop() }
        let (config, idsFile) = try Self.setUp("history-bad-rate", server: server, rate: rate, ids: ["1"])
        var error: JobError?
        do {
            _ = try await HistorySyncJob.run(Self.options(config, idsFile: idsFile)) { _ in }
        } catch let thrown {
            error = thrown
        }
        #expect(error?.exitCode == 64 && error?.description.contains("api.requestsPerSecond") == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        (["--history"], "--ids FILE, --ids-from-notifications"), (["--statuses", "--ids", "x", "--from", "2026-11-01"], "--from"),
        (["--ids", "x"], "go with --history or --statuses"),
    ])
    func historyFlagsAreCheckedBeforeAnythingRuns(flags: [String], words: String) throws {
        let result = try CommandRunner.run(["sync", "--config", "/nonexistent.json"] + flags)
        #expect(result.exitCode == 64 && result.stderr.contains(words), "\(result.stderr)")
    }
}

/// Instants recorded by concurrent tasks.
final class InstantLog: Sendable {
    let instants = Mutex<[ContinuousClock.Instant]>([])
}
