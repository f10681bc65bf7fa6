import Foundation
import Synchronization
import Testing
import WinbackAppStore
import WinbackCrypto
import WinbackIO
import WinbackJobs
import WinbackSampleData
import WinbackServer
import WinbackTestSupport

/// `POST /notifications` (docs/notifications-pushed.md): the sample's notifications pushed to an in-process server are each on disk
/// exactly once before their 200, refusals write nothing, a failing disk is 503, a torn last line is repaired at
/// start and skipped by the night, and a night reading the pushed copies publishes the tables of the synced ones.
@Suite struct NotificationPushTests {
    static let instance = "test-a"
    /// The day of ``ServeTests/noon``: the file the server appends to.
    static let day = "2026-11-20"

    /// The sample's notifications, as the `signedPayload`s Apple would push.
    static func sampleNotifications() throws -> [String] {
        let file = Fixtures.packageRoot.appendingPathComponent("sample-data/exports/notifications/notifications.ndjson.gz")
        return try Gunzip.text(Array(try Data(contentsOf: file))).split(separator: "\n").map { line in
            guard case .string(let jws)? = try JSONParser.parse(Array(line.utf8))["signedPayload"] else {
                throw FixtureError(description: "a sample notification without signedPayload")
            }
            return jws
        }
    }

    /// A sample config with an `api` block (directory `sync`), its server running in-process at noon of ``day``.
    static func start(_ name: String) async throws -> (server: RetentionServer, directory: URL) {
        let config = try SampleConfig.copy(name) { text in
            text.replacingOccurrences(
                of: #""ledger":"#, with: #""api": { "keyId": "K", "issuerId": "I", "directory": "sync" },"# + "\n  " + #""ledger":"#)
        }
        var options = ServeOptions(configPath: config.path, now: { ServeTests.noon })
        options.port = 0
        options.isQuiet = true
        options.instance = instance
        let service = try ServeJob.prepare(options) { _ in }
        let server = try await RetentionServer.start(service: service, host: "127.0.0.1", port: 0)
        return (server, config.deletingLastPathComponent())
    }

    static func received(_ directory: URL) -> URL {
        directory.appendingPathComponent("sync/notifications/received/\(day).\(instance).ndjson")
    }

    static func post(_ server: RetentionServer, _ jws: String) async throws -> (status: Int, body: String) {
        let reply = try await LoopbackClient.send("POST", server.address + "/notifications", body: RetentionRequests.body(jws))
        return (reply.status, reply.body)
    }

    @Test func everyNotificationIsOnDiskOnceBeforeItsAnswer() async throws {
        let (server, directory) = try await Self.start("push-once")
        let notifications = try Self.sampleNotifications()
        for jws in notifications {
            let reply = try await Self.post(server, jws)
            #expect(reply.status == 200 && reply.body == "{}", "\(reply)")
        }
        // Apple's retry of an acknowledged notification: 200, no second line.
        #expect(try await Self.post(server, notifications[0]).status == 200)
        let lines = try String(contentsOf: Self.received(directory), encoding: .utf8).split(separator: "\n")
        #expect(lines.map(String.init) == notifications.map { JSONText.render(JSONText.object([("signedPayload", .string($0))])) })
        #expect(server.service.inbox?.appended == notifications.count)
        let health = try await LoopbackClient.send("GET", server.address + "/healthz")
        #expect(health.body.contains(#""lastNotificationAt":"2026-11-20T12:00:00.000Z""#), "\(health.body)")
        let metrics = try await LoopbackClient.send("GET", server.address + "/metrics")
        #expect(metrics.body.contains(#"outcome="duplicate"} 1"#), "\(metrics.body)")
        _ = await server.stop()
    }

    @Test func refusalsWriteNothing() async throws {
        let (server, directory) = try await Self.start("push-refusals")
        let jws = try #require(try Self.sampleNotifications().first)
        let cases: [(body: [UInt8], status: Int, error: String)] = [
            (Array("not json".utf8), 400, "malformed_body"), (Array(#"{"signedPayload": 7}"#.utf8), 400, "malformed_body"),
            (RetentionRequests.body(DamagedSignature.of(jws)), 400, "invalid_signature"),
            (RetentionRequests.body("a.b.c"), 400, "malformed_jws"),
            ([UInt8](repeating: UInt8(ascii: " "), count: RetentionService.maximumBodyBytes + 1), 413, "body_too_large"),
        ]
        for refusal in cases {
            let reply = try await LoopbackClient.send("POST", server.address + "/notifications", body: refusal.body)
            #expect(reply.status == refusal.status && reply.body.contains(refusal.error), "\(reply)")
        }
        #expect(try await LoopbackClient.send("GET", server.address + "/notifications").status == 405)
        #expect(!FileManager.default.fileExists(atPath: Self.received(directory).path))
        _ = await server.stop()
    }

    /// A sample notification re-signed (with the sample's TEST-ONLY leaf key, under its own header) after `edit`
    /// of its decoded payload.
    static func resigned(_ jws: String, edit: (inout [String: Any]) -> Void) throws -> String {
        let segments = jws.split(separator: ".")
        let payload = try #require(Base64.decodeURL(String(segments[1])))
        var object = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
        edit(&object)
        let body = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return try JWSSigner(key: TestPKI.key(seed: 42, label: "leaf")).sign(encodedHeader: Array(segments[0].utf8), payload: Array(body))
    }

    @Test(arguments: [
        ("environment", "Sandbox", "invalid_environment"), ("bundleId", "com.example.other", "invalid_app_identifier"),
        ("appAppleId", "999", "invalid_app_identifier"),
    ])
    func aNotificationOfAnotherAppOrEnvironmentIsRefused(_ key: String, _ value: String, _ code: String) async throws {
        let (server, directory) = try await Self.start("push-other-app")
        let jws = try #require(try Self.sampleNotifications().first)
        // The unedited copy verifies: the refusal below is the edit's.
        #expect(try await Self.post(server, try Self.resigned(jws) { _ in }).status == 200)
        let other = try Self.resigned(jws) { object in
            var data = object["data"] as? [String: Any] ?? [:]
            data[key] = key == "appAppleId" ? Int(value) as Any : value
            object["data"] = data
            object["notificationUUID"] = "0ther0000-0000-4000-8000-000000000000"
        }
        let reply = try await Self.post(server, other)
        #expect(reply.status == 400 && reply.body == #"{"error":"\#(code)"}"#, "\(reply)")
        #expect(try String(contentsOf: Self.received(directory), encoding: .utf8).split(separator: "\n").count == 1)
        _ = await server.stop()
    }

    @Test func aFailingDiskIs503AndNothingIsAcknowledged() async throws {
        let (server, directory) = try await Self.start("push-disk")
        let notifications = try Self.sampleNotifications()
        // The day's file cannot be opened (a directory stands in its place), as with a full or read-only disk.
        try FileManager.default.createDirectory(at: Self.received(directory), withIntermediateDirectories: true)
        let refused = try await Self.post(server, notifications[0])
        #expect(refused.status == 503 && refused.body == #"{"error":"unavailable"}"#)
        try FileManager.default.removeItem(at: Self.received(directory))
        // Apple sends it again: now it is kept, once.
        #expect(try await Self.post(server, notifications[0]).status == 200)
        #expect(try String(contentsOf: Self.received(directory), encoding: .utf8).split(separator: "\n").count == 1)
        _ = await server.stop()
    }

    @Test func aTornLastLineIsCutAtStartAndItsNotificationKeptWhenSentAgain() async throws {
        let notifications = try Self.sampleNotifications()
        let (first, directory) = try await Self.start("push-torn")
        #expect(try await Self.post(first, notifications[0]).status == 200)
        _ = await first.stop()
        // A crash mid-write left half a line (never acknowledged).
        let file = Self.received(directory)
        let whole = try Data(contentsOf: file)
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"signedPayload":"eyJhbGciOiJFUzI1"#.utf8))
        try handle.close()
        let inbox = try NotificationInbox(directory: file.deletingLastPathComponent().path, instance: Self.instance, today: Self.day)
        #expect(try Data(contentsOf: file) == whole)
        #expect(await inbox.append(Array("{}\n".utf8), notificationUUID: "x", day: Self.day) == .appended)
        #expect(await inbox.append(Array("{}\n".utf8), notificationUUID: "x", day: Self.day) == .duplicate)
        // The first notification's UUID is known from the file: its retry writes nothing.
        let uuid = try #require(
            NotificationPushTests.uuid(of: notifications[0]))
        #expect(await inbox.append(Array("{}\n".utf8), notificationUUID: uuid, day: Self.day) == .duplicate)
    }

    static func uuid(of jws: String) -> String? {
        let segments = jws.split(separator: ".")
        guard segments.count == 3, let payload = Base64.decodeURL(String(segments[1])),
            case .string(let uuid)? = (try? JSONParser.parse(payload))?["notificationUUID"]
        else { return nil }
        return uuid
    }

    /// The night reading the pushed copies (with a torn last line) instead of the synced file publishes the same
    /// tables; reading both, each notification counts once.
    @Test func aNightOnThePushedCopiesPublishesTheSameTables() async throws {
        let (server, directory) = try await Self.start("push-night")
        for jws in try Self.sampleNotifications() { #expect(try await Self.post(server, jws).status == 200) }
        _ = await server.stop()
        let received = Self.received(directory)
        let handle = try FileHandle(forWritingTo: received)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"signedPayload":"eyJhbGciOiJFUzI1"#.utf8))
        try handle.close()
        let config = directory.appendingPathComponent("config.json")
        let original = try String(contentsOf: config, encoding: .utf8)
        func night(_ name: String, inputs: (String) -> String) async throws -> [String: String] {
            try inputs(original).write(to: config, atomically: true, encoding: .utf8)
            let output = directory.appendingPathComponent(name)
            var options = RunOptions(
                configPath: config.path, asOf: RunGoldenTests.asOf, outputOverride: output.path,
                ledgerOverride: directory.appendingPathComponent("\(name).sqlite").path, isQuiet: true)
            options.usesStore = false
            let outcome = try await RunJob.run(options)
            #expect(outcome.exitCode == 0)
            return try VerifiedStoreTests.published(output, asOf: RunGoldenTests.asOf).filter {
                $0.key.hasSuffix(".csv.gz") || $0.key == "rejects.ndjson.gz"
            }
        }
        let synced = try await night("synced") { $0 }
        let sample = Fixtures.packageRoot.appendingPathComponent("sample-data/exports").path
        let withoutSynced = original.replacingOccurrences(
            of: "\"\(sample)/**/*.ndjson.gz\"", with: "\"\(sample)/transactions/*.ndjson.gz\", \"\(sample)/status/*.json.gz\"")
        #expect(!withoutSynced.contains("**/*.ndjson.gz"), "the synced notifications are still read")
        let pushed = try await night("pushed") { _ in
            withoutSynced.replacingOccurrences(of: #""inputs": ["#, with: #""inputs": ["sync/notifications/received/*.ndjson", "#)
        }
        let both = try await night("both") { text in
            text.replacingOccurrences(of: #""inputs": ["#, with: #""inputs": ["sync/notifications/received/*.ndjson", "#)
        }
        #expect(synced.count > 10 && Set(pushed.keys) == Set(synced.keys) && Set(both.keys) == Set(synced.keys))
        for (name, bytes) in synced {
            let (isPushedSame, isBothSame) = (pushed[name] == bytes, both[name] == bytes)
            #expect(isPushedSame, "\(name): the pushed copies' night differs")
            #expect(isBothSame, "\(name): reading both copies differs")
        }
    }
}

/// `kill -9` of `winback serve` while notifications are pushed from 8 connections at once: every notification
/// answered 200 is on disk, the restarted server repairs a torn line, and Apple's retries of every notification
/// leave each on disk exactly once.
@Suite struct NotificationPushKillTests {
    /// A sample config with an `api` block (pushed notifications go to `sync/notifications/received/`).
    static func config(_ name: String) throws -> URL {
        try SampleConfig.copy(name) { text in
            text.replacingOccurrences(
                of: #""ledger":"#, with: #""api": { "keyId": "K", "issuerId": "I", "directory": "sync" },"# + "\n  " + #""ledger":"#)
        }
    }

    /// Pushes `notifications` to a `winback serve --instance <instance>` from 8 connections, sends it `signal` once a
    /// third are answered 200, and waits for it to exit: the process, its stdout, the notifications answered 200.
    static func pushUntilSignalled(
        _ config: URL, _ notifications: [String], instance: String, signal: Int32
    ) async throws -> (Process, Pipe, [String]) {
        let (process, stdout, listening) = try ServeProcessTests.launch(config, arguments: ["--instance", instance])
        let address = try #require(listening["listening"]?.stringValue)
        let acknowledged = Acknowledged()
        let pid = process.processIdentifier
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<8 {
                group.addTask {
                    for (index, jws) in notifications.enumerated() where index % 8 == lane {
                        guard
                            let reply = try? await LoopbackClient.send(
                                "POST", address + "/notifications", body: RetentionRequests.body(jws)),
                            reply.status == 200
                        else { continue }
                        acknowledged.list.withLock { $0.append(jws) }
                    }
                }
            }
            group.addTask {
                while acknowledged.list.withLock({ $0.count }) < notifications.count / 3 { try? await Task.sleep(nanoseconds: 2_000_000) }
                kill(pid, signal)
            }
        }
        process.waitUntilExit()
        return (process, stdout, acknowledged.list.withLock { $0 })
    }

    @Test func killNineUnderLoadLosesNoAcknowledgedNotification() async throws {
        let config = try Self.config("push-kill")
        let notifications = try NotificationPushTests.sampleNotifications()
        let (_, _, saved) = try await Self.pushUntilSignalled(config, notifications, instance: "kill-test", signal: SIGKILL)
        #expect(saved.count >= notifications.count / 3 && saved.count < notifications.count, "killed mid-load: \(saved.count)")
        let directory = config.deletingLastPathComponent().appendingPathComponent("sync/notifications/received")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".kill-test.ndjson") }
        let file = directory.appendingPathComponent(try #require(files.first))
        let text = try String(contentsOf: file, encoding: .utf8)
        let onDisk = Set(text.split(separator: "\n").map(String.init))
        for jws in saved { #expect(onDisk.contains(JSONText.render(JSONText.object([("signedPayload", .string(jws))])))) }

        // Restarted: Apple sends everything again; each notification is then on disk once, and no line is torn.
        let (again, _, listeningAgain) = try ServeProcessTests.launch(config, arguments: ["--instance", "kill-test"])
        let addressAgain = try #require(listeningAgain["listening"]?.stringValue)
        for jws in notifications {
            let reply = try await LoopbackClient.send("POST", addressAgain + "/notifications", body: RetentionRequests.body(jws))
            #expect(reply.status == 200)
        }
        again.terminate()
        again.waitUntilExit()
        let final = try String(contentsOf: file, encoding: .utf8)
        #expect(final.hasSuffix("\n"))
        let lines = final.split(separator: "\n").map(String.init)
        #expect(lines.count == notifications.count && Set(lines).count == notifications.count)
    }
}

/// `winback serve` stopped by SIGTERM under load: every notification it answered 200 is on disk, the requests it
/// was answering are answered before it exits 0, and its summary counts exactly what is on disk.
@Suite struct NotificationPushDrainTests {
    @Test func sigtermUnderLoadDrainsWithoutLosingAnAcceptedNotification() async throws {
        let config = try NotificationPushKillTests.config("push-drain")
        let notifications = try NotificationPushTests.sampleNotifications()
        let (process, stdout, saved) = try await NotificationPushKillTests.pushUntilSignalled(
            config, notifications, instance: "drain-test", signal: SIGTERM)
        #expect(process.terminationStatus == 0)
        #expect(saved.count >= notifications.count / 3)
        let summaryLine =
            String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").last.map(String.init) ?? ""
        let summary = try JSONParser.parse(summaryLine)
        let directory = config.deletingLastPathComponent().appendingPathComponent("sync/notifications/received")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".drain-test.ndjson") }
        let text = try String(contentsOf: directory.appendingPathComponent(try #require(files.first)), encoding: .utf8)
        let onDisk = text.split(separator: "\n").map(String.init)
        for jws in saved { #expect(onDisk.contains(JSONText.render(JSONText.object([("signedPayload", .string(jws))])))) }
        #expect(summary["notifications"]?["accepted"] == .integer(Int64(onDisk.count)))
        #expect(Set(onDisk).count == onDisk.count)
    }
}

/// The notifications answered 200, from several tasks.
final class Acknowledged: Sendable {
    let list = Mutex<[String]>([])
}
