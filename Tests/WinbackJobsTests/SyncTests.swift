import Crypto
import Foundation
import Synchronization
import Testing
import WinbackAppStore
import WinbackCore
import WinbackCrypto
import WinbackIO
import WinbackJobs
import WinbackRemote
import WinbackTestSupport

/// `winback sync` (docs/sync.md) against ``MockAppStoreServer`` on loopback: every day's notifications written
/// once, in order, across pages; temporary faults retried (and `Retry-After` honoured); 75, 76 and 77.
@Suite struct SyncTests {
    static let keyId = "TESTKEY001"
    static let issuerId = "57246542-96fe-1a63-e053-0824d011072a"
    static let bundleId = "com.example.winback"
    /// The sync's "now": 2026-11-20 06:00 UTC, so yesterday is the sample's as-of day.
    static let now = Date(timeIntervalSince1970: Double(InstantFormat.days(year: 2026, month: 11, day: 20) * 86_400 + 6 * 3600))

    static var keyPath: String { Fixtures.packageRoot.appendingPathComponent("sample-data/keys/SubscriptionKey_TESTKEY001.p8").path }

    static func publicKey() throws -> P256.Signing.PublicKey {
        try P256.Signing.PrivateKey(pemRepresentation: String(contentsOfFile: keyPath, encoding: .utf8)).publicKey
    }

    /// The sample's notifications with their `signedDate` read from the payload (not verified: the mock only files them).
    static func sampleNotifications() throws -> [MockAppStoreServer.Notification] {
        let file = Fixtures.packageRoot.appendingPathComponent("sample-data/exports/notifications/notifications.ndjson.gz")
        let text = try Gunzip.text(Array(try Data(contentsOf: file)))
        return try text.split(separator: "\n").map { line in
            guard case .string(let jws)? = try JSONParser.parse(Array(line.utf8))["signedPayload"],
                let payload = Base64.decodeURL(String(jws.split(separator: ".")[1])),
                case .integer(let signedDate)? = try JSONParser.parse(payload)["signedDate"]
            else { throw FixtureError(description: "unreadable sample notification") }
            return MockAppStoreServer.Notification(signedDate: signedDate, signedPayload: jws)
        }
    }

    /// A copy of the sample config with an `api` block for `server` (and `keyFile` instead of the sample key).
    static func config(_ name: String, server: MockAppStoreServer, keyFile: String = keyPath) throws -> URL {
        try SampleConfig.copy(name) { text in
            text.replacingOccurrences(
                of: #""ledger":"#,
                with: #""api": { "keyId": "\#(keyId)", "issuerId": "\#(issuerId)", "privateKeyFile": "\#(keyFile)", "directory": "sync", "#
                    + #""baseURL": "\#(server.baseURL)/" },"# + "\n  " + #""ledger":"#)
        }
    }

    static func server(pageSize: Int = 2) throws -> MockAppStoreServer {
        try MockAppStoreServer(
            publicKey: publicKey(), keyId: keyId, issuerId: issuerId, bundleId: bundleId, notifications: sampleNotifications(),
            pageSize: pageSize)
    }

    /// Sync options for tests: the fixed clock, waits recorded instead of slept, jitter 0.5, 20-second timeouts
    /// (for a whole response: a test machine running every suite at once must not time out a normal one; on
    /// two busy cores a loopback answer has taken over 2.5 s).
    static func options(_ config: URL, from: String?, to: String?, sleeps: SleepLog? = nil) -> SyncOptions {
        var options = SyncOptions(
            configPath: config.path, from: from, to: to, now: { now },
            sleep: { seconds in sleeps?.seconds.withLock { $0.append(seconds) } },
            jitter: { 0.5 }, environment: [:])
        options.retryPolicy = RetryPolicy(maxAttempts: 6, baseDelay: 0.01, maxDelay: 1, maxRetryAfter: 300)
        options.requestTimeout = 20
        options.isQuiet = true
        return options
    }

    /// The `signedPayload`s of a synced day file, in order.
    static func payloads(_ config: URL, _ day: String) throws -> [String] {
        let file = config.deletingLastPathComponent().appendingPathComponent("sync/notifications/\(day).ndjson.gz")
        let text = try Gunzip.text(Array(try Data(contentsOf: file)))
        return try text.split(separator: "\n").map { line in
            guard case .string(let jws)? = try JSONParser.parse(Array(line.utf8))["signedPayload"] else {
                throw FixtureError(description: "a line without signedPayload: \(line)")
            }
            return jws
        }
    }

    static func expected(_ notifications: [MockAppStoreServer.Notification], day: SyncDay) -> [String] {
        notifications.filter { day.startMilliseconds <= $0.signedDate && $0.signedDate < day.endMilliseconds }.sorted {
            $0.signedDate < $1.signedDate
        }
        .map(\.signedPayload)
    }

    /// The job error a sync ends with (`nil` when it succeeds).
    static func failure(_ options: SyncOptions) async -> JobError? {
        do {
            _ = try await SyncJob.run(options) { _ in }
            return nil
        } catch {
            return error
        }
    }

    @Test func writesEveryNotificationOfEachDayOnceAcrossPagesAndSkipsDaysWritten() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let config = try Self.config("sync-days", server: server)
        let notifications = try Self.sampleNotifications()
        let days = try SyncDayRange.days(from: "2026-09-21", to: "2026-11-19", now: Int64(Self.now.timeIntervalSince1970 * 1000))
        #expect(days.count == 60)

        let lines = LogLines()
        let outcome = try await SyncJob.run(Self.options(config, from: "2026-09-21", to: "2026-11-19")) { lines.append($0) }
        // The sample config's inputs do not read sync/: the sync says so.
        #expect(
            lines.all.contains {
                $0.hasPrefix("warning: no pattern of the config's inputs matches ") && $0.contains(#""sync/notifications/*.ndjson.gz""#)
            })
        var total = 0
        var pages = 0
        for day in days {
            let expected = Self.expected(notifications, day: day)
            #expect(try Self.payloads(config, day.label) == expected, "\(day)")
            total += expected.count
            pages += max(1, (expected.count + 1) / 2)
        }
        #expect(total > 30, "the range holds \(total) notifications")
        #expect(outcome.daysWritten == 60 && outcome.daysSkipped == 0 && outcome.notifications == total && outcome.retries == 0)
        #expect(outcome.requests == pages && server.requests.count == pages)
        #expect(server.requests.contains { $0.target.contains("paginationToken=p%2F") })
        #expect(server.requests.allSatisfy { $0.body.hasPrefix(#"{"startDate":"#) })

        // Run again: every day is there; nothing is requested. --refresh fetches a day again.
        let again = try await SyncJob.run(Self.options(config, from: "2026-09-21", to: "2026-11-19")) { _ in }
        #expect(again.daysWritten == 0 && again.daysSkipped == 60 && server.requests.count == pages)
        var refresh = Self.options(config, from: "2026-11-09", to: "2026-11-09")
        refresh.refresh = true
        let refreshed = try await SyncJob.run(refresh) { _ in }
        #expect(refreshed.daysWritten == 1 && refreshed.notifications == 4)
        #expect(try Self.payloads(config, "2026-11-09") == Self.expected(notifications, day: SyncDay(dayNumber: days[49].dayNumber)))

        // What sync wrote is what `winback run` reads: every synced record (the notifications and the
        // transactions and renewal infos inside them) verifies.
        let verifyConfig = config.deletingLastPathComponent().appendingPathComponent("read-synced.json")
        try String(contentsOf: config, encoding: .utf8).replacing(
            #/"inputs": \[[^\]]*\]/#, with: #""inputs": ["sync/notifications/*.ndjson.gz"]"#
        )
        .write(to: verifyConfig, atomically: true, encoding: .utf8)
        let quiet = LogLines()
        var check = Self.options(verifyConfig, from: "2026-11-19", to: "2026-11-19")
        check.isQuiet = false
        _ = try await SyncJob.run(check) { quiet.append($0) }
        #expect(!quiet.all.contains { $0.hasPrefix("warning: no pattern") }, "\(quiet.all)")
        let verify = try CommandRunner.run(["verify", "--config", verifyConfig.path, "--quiet"])
        #expect(verify.exitCode == 0, "\(verify.stderr)")
        let records = try #require(try JSONParser.parse(Array(verify.stdout.utf8))["records"])
        #expect(records["rejected"] == .integer(0) && records["read"] == records["accepted"], "\(verify.stdout)")
        if case .integer(let read)? = records["read"] { #expect(read >= Int64(total)) }
        #expect(verify.stdout.contains(#""inputs":60"#), "\(verify.stdout)")
    }

    @Test func temporaryFaultsAreRetriedHonouringRetryAfter() async throws {
        let server = try Self.server()
        defer { server.stop() }
        server.inject([
            .status(429, retryAfter: "7"), .status(500), .slow(15), .truncatedBody,
            .status(503, retryAfter: "Wed, 21 Oct 2015 07:28:00 GMT"),
        ])
        let config = try Self.config("sync-faults", server: server)
        let sleeps = SleepLog()
        var options = Self.options(config, from: "2026-11-09", to: "2026-11-10", sleeps: sleeps)
        options.requestTimeout = 6
        let outcome = try await SyncJob.run(options) { _ in }
        // The sixth attempt (the last allowed) succeeds; the backoff doubles from 0.01 s with jitter 0.5 (× 0.75).
        #expect(outcome.retries == 5 && outcome.daysWritten == 2)
        #expect(sleeps.seconds.withLock { $0 } == [7, 0.015, 0.03, 0.06, 0])
        let notifications = try Self.sampleNotifications()
        for label in ["2026-11-09", "2026-11-10"] {
            let day = try #require(SyncDayRange.days(from: label, to: label, now: Int64(Self.now.timeIntervalSince1970 * 1000)).first)
            #expect(try Self.payloads(config, label) == Self.expected(notifications, day: day))
        }
    }

    @Test func failuresThatOutlastTheAttemptsExit75KeepingTheDaysWritten() async throws {
        let server = try Self.server(pageSize: 20)
        defer { server.stop() }
        server.inject([.none] + Array(repeating: .status(502), count: 6))
        let config = try Self.config("sync-75", server: server)
        let error = await Self.failure(Self.options(config, from: "2026-11-09", to: "2026-11-10"))
        #expect(error?.exitCode == 75)
        #expect(error?.description.contains("HTTP 502 for 2026-11-10 after 6 attempts") == true, "\(String(describing: error))")
        let directory = config.deletingLastPathComponent().appendingPathComponent("sync/notifications")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == [".lock", "2026-11-09.ndjson.gz"])
    }

    @Test(arguments: [
        (MockAppStoreServer.Fault.status(404), "HTTP 404"), (.status(400), "HTTP 400"), (.body(#"{"hasMore":"yes"}"#), "hasMore"),
    ])
    func unexpectedResponsesExit76WithStatusAndExcerpt(fault: MockAppStoreServer.Fault, words: String) async throws {
        let server = try Self.server()
        defer { server.stop() }
        server.inject(Array(repeating: fault, count: 6))
        let config = try Self.config("sync-76", server: server)
        let error = await Self.failure(Self.options(config, from: "2026-11-09", to: "2026-11-09"))
        #expect(error?.exitCode == 76)
        #expect(error?.description.contains(words) == true, "\(String(describing: error))")
        let directory = config.deletingLastPathComponent().appendingPathComponent("sync/notifications")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [".lock"])
    }

    /// A hostile or broken server (issue 44): a redirect to another origin is 76 and the token never
    /// reaches that origin; a pagination token given twice, a body over the limit (plain or inflated from a
    /// small gzip, refused unread) are 76; a body that trickles ends at the timeout (75 after the attempts); the server's
    /// text is quoted with its control characters escaped.
    @Test(arguments: [
        ("redirect", "not followed"), ("pagination loop", "repeated a paginationToken"), ("huge body", "over 1048576 bytes"),
        ("gzip bomb", "encoded though only identity was asked for"), ("escape sequences", "\\u{1b}[31m"), ("trickle", "timed out"),
    ])
    func aHostileServerCannotSteerTheSync(_ behaviour: String, _ words: String) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let elsewhere = try Self.server()
        defer { elsewhere.stop() }
        let loop = #"{"notificationHistory":[],"hasMore":true,"paginationToken":"same"}"#
        switch behaviour {
        case "redirect": server.inject([.redirect(307, location: elsewhere.baseURL + "/inApps/v1/notifications/history")])
        case "pagination loop": server.inject([.body(loop), .body(loop)])
        case "huge body": server.inject([.huge(declared: 1 << 40, sent: 4096)])
        case "gzip bomb":
            server.inject([.compressed(try GzipWriter.compress([UInt8](repeating: UInt8(ascii: " "), count: 2 << 20), level: 9))])
        case "escape sequences": server.inject(Array(repeating: .body("\u{1b}[31mred\u{1b}[0m\nnext line"), count: 6))
        default: server.inject(Array(repeating: .trickle(interval: 0.2, bytes: 1000), count: 2))
        }
        let config = try Self.config("sync-hostile", server: server)
        var options = Self.options(config, from: "2026-11-09", to: "2026-11-09")
        options.maximumResponseBytes = 1 << 20
        if behaviour == "trickle" {
            options.retryPolicy = RetryPolicy(maxAttempts: 2, baseDelay: 0.01, maxDelay: 1, maxRetryAfter: 300)
            options.requestTimeout = 1
        }
        let error = await Self.failure(options)
        #expect(error?.exitCode == (behaviour == "trickle" ? 75 : 76), "\(String(describing: error))")
        #expect(error?.description.contains(words) == true, "\(String(describing: error))")
        #expect(elsewhere.requests.isEmpty, "a request reached the other origin")
        if behaviour == "escape sequences" { #expect(error?.description.contains("\u{1b}") == false) }
        let directory = config.deletingLastPathComponent().appendingPathComponent("sync/notifications")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [".lock"])
    }

    /// Through the command line: a key the server does not know exits 77 naming the key id, never the key.
    @Test func aWrongKeyExits77NamingTheKeyIdOnly() throws {
        let server = try Self.server()
        defer { server.stop() }
        let directory = try CommandRunner.temporaryDirectory("sync-77")
        let otherKey = P256.Signing.PrivateKey().pemRepresentation
        let keyFile = directory.appendingPathComponent("other.p8")
        try otherKey.write(to: keyFile, atomically: true, encoding: .utf8)
        let config = try Self.config("sync-77", server: server, keyFile: keyFile.path)
        let result = try CommandRunner.run(["sync", "--config", config.path, "--quiet"])
        #expect(result.exitCode == 77, "\(result.stdout)\(result.stderr)")
        #expect(result.firstErrorLine.contains("refused key id TESTKEY001 (HTTP 401)"), "\(result.stderr)")
        #expect(result.stdout.hasSuffix("\n") && result.stdout.contains(#""exitCode":77"#))
        let keyBody = otherKey.split(separator: "\n").dropFirst().first.map(String.init) ?? "?"
        #expect(!(result.stdout + result.stderr).contains(keyBody))
        #expect(server.requests.count == 1 && server.requests[0].authorization.hasPrefix("Bearer "))
    }

    /// Without `api.privateKeyFile`, an `api.keyId` equal to `signing.keyId` uses the signing key; another
    /// key id then needs its own file (64).
    @Test func theSigningKeyServesWhenTheIdsMatch() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let config = try Self.config("sync-signing-key", server: server)
        let text = try String(contentsOf: config, encoding: .utf8)
        let withoutFile = text.replacingOccurrences(of: #""privateKeyFile": "\#(Self.keyPath)", "directory""#, with: #""directory""#)
        #expect(withoutFile != text)
        try withoutFile.write(to: config, atomically: true, encoding: .utf8)
        let outcome = try await SyncJob.run(Self.options(config, from: "2026-11-09", to: "2026-11-09")) { _ in }
        #expect(outcome.daysWritten == 1 && outcome.notifications == 4)
        let other = withoutFile.replacingOccurrences(of: #""api": { "keyId": "TESTKEY001""#, with: #""api": { "keyId": "OTHERKEY01""#)
        #expect(other != withoutFile)
        try other.write(to: config, atomically: true, encoding: .utf8)
        let error = await Self.failure(Self.options(config, from: "2026-11-10", to: "2026-11-10"))
        #expect(error?.exitCode == 64)
        #expect(
            error?.description.contains("api.privateKeyFile: expected a .p8 path (or WINBACK_API_KEY_FILE)") == true,
            "\(String(describing: error))")
    }

    /// `jobs/nightly.sh` syncs before it runs when the config has `api` (the real clock: the last 3 days, empty here).
    @Test func theNightlyScriptSyncsThenRuns() throws {
        let server = try Self.server()
        defer { server.stop() }
        let config = try Self.config("sync-nightly", server: server)
        let logs = config.deletingLastPathComponent().appendingPathComponent("logs")
        let result = try CommandRunner.runProgram(
            "/bin/bash", [Fixtures.packageRoot.appendingPathComponent("jobs/nightly.sh").path],
            environment: [
                "WINBACK_BIN": CommandRunner.executable.path, "WINBACK_CONFIG": config.path, "WINBACK_LOG_DIR": logs.path,
                "WINBACK_AS_OF": "2026-11-19", "WINBACK_METRICS_DIR": logs.path,
            ])
        #expect(result.exitCode == 0, "\(result.stderr)")
        // Each command's metrics file for node_exporter, beside the log here.
        for command in ["sync", "run"] {
            let metrics = try String(contentsOf: logs.appendingPathComponent("winback-\(command).prom"), encoding: .utf8)
            #expect(metrics.contains(#"winback_exit_code{command="\#(command)"} 0.0"#), "\(command): \(metrics)")
        }
        let log = try String(contentsOf: logs.appendingPathComponent("winback-2026-11-19.log"), encoding: .utf8)
        let syncLine = try #require(log.range(of: "nightly.sh: winback sync --config"))
        let runLine = try #require(log.range(of: "nightly.sh: winback run --config"))
        #expect(syncLine.lowerBound < runLine.lowerBound)
        #expect(log.contains(#""command":"sync","exitCode":0"#) && log.contains("nightly.sh: exit 0"), "\(log)")
        let synced = try FileManager.default.contentsOfDirectory(
            atPath: config.deletingLastPathComponent().appendingPathComponent("sync/notifications").path)
        #expect(synced.filter { $0.hasSuffix(".ndjson.gz") }.count == 3)
        #expect(server.requests.count == 3)
    }

    @Test func aDayOlderThanTheHistoryOrAConfigWithoutApiExits64() throws {
        let server = try Self.server()
        defer { server.stop() }
        let config = try Self.config("sync-64", server: server)
        let old = try CommandRunner.run(["sync", "--config", config.path, "--from", "2020-01-01", "--to", "2020-01-02"])
        #expect(old.exitCode == 64 && old.firstErrorLine.contains("--from: 2020-01-01 is older than"), "\(old.stderr)")
        let plain = try SampleConfig.copy("sync-no-api")
        let none = try CommandRunner.run(["sync", "--config", plain.path])
        #expect(none.exitCode == 64 && none.firstErrorLine.contains(": api: expected keyId"), "\(none.stderr)")
        #expect(server.requests.isEmpty)
    }
}

/// The waits a sync asked for, recorded instead of slept.
final class SleepLog: Sendable {
    let seconds = Mutex<[Double]>([])
}

/// Log lines a sync wrote.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var all: [String] { lines.withLock { $0 } }
}
