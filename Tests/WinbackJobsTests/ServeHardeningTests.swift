import Foundation
import Testing
import WinbackRemote
import WinbackServer
import WinbackTestSupport

/// `winback serve` against careless and hostile clients (issue 51): idle and slow connections cannot lock out
/// `/healthz` or Apple, a request trickled a byte at a time is closed at its read deadline, junk after a valid
/// request gets the request's answer first, and a day whose decisions file is missing is refused, not served empty.
@Suite struct ServeHardeningTests {
    /// An in-process server over ``ServeTests/rows`` with a connection limit and a request read timeout.
    static func start(_ name: String, maximumConnections: Int? = nil, requestReadTimeout: Double = 10) async throws -> ServeTests.Running {
        let config = try RetentionDecisionsRunTests.config(name, campaigns: ServeTests.campaigns)
        let directory = config.deletingLastPathComponent()
        try RetentionRequests.publish(ServeTests.rows, day: "2026-11-19", output: directory.appendingPathComponent("out"))
        let clock = TestClock(ServeTests.noon)
        var options = ServeOptions(configPath: config.path, now: { clock.now() })
        options.port = 0
        options.isQuiet = true
        options.reloadIntervalSeconds = 0.2
        let service = try ServeJob.prepare(options) { _ in }
        let server = try await RetentionServer.start(
            service: service, host: "127.0.0.1", port: 0, maximumConnections: maximumConnections, requestReadTimeout: requestReadTimeout)
        return ServeTests.Running(server: server, directory: directory, clock: clock, requests: try RetentionRequests())
    }

    /// A raw HTTP/1.1 POST of `body` to `path`.
    static func post(_ body: [UInt8], path: String = "/retention") -> String {
        "POST \(path) HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
            + String(decoding: body, as: UTF8.self)
    }

    @Test func idleAndSlowConnectionsAtTheLimitDoNotLockOutHealthzOrARequest() async throws {
        let running = try await Self.start("serve-starved", maximumConnections: 60)
        var held: [RawConnection] = []
        for _ in 0..<70 { held.append(try RawConnection(port: running.server.port, readTimeout: 1)) }
        // Ten slow clients: a head never finished.
        for index in 0..<10 { held[index].send("POST /retention HTTP/1.1\r\nHost: localhost\r\nContent-Le") }
        // How fast is measured in docs/retention-messaging.md, not asserted here: that they are answered at all is.
        let health = try await LoopbackClient.send("GET", running.server.address + "/healthz")
        #expect(health.status == 200)
        let answer = try await running.ask("1002")
        #expect(answer["alternateProduct"] != nil)
        // Room was made by closing the stalest connections, never the one being answered.
        #expect(held.prefix(12).contains { $0.isClosedByServer() })
        for connection in held { connection.close() }
        _ = await running.server.stop()
    }

    @Test func aRequestTrickledPastItsReadDeadlineIsClosed() async throws {
        let running = try await Self.start("serve-slow-body", requestReadTimeout: 0.5)
        let connection = try RawConnection(port: running.server.port, readTimeout: 1)
        let body = Self.post(try running.requests.body(originalTransactionId: "1000", signedDate: running.clock.now()))
        // A byte every 0.2 s keeps the 60 s idle timeout away for ever; the request's 0.5 s deadline ends it.
        var sent = 0
        for character in body.prefix(25) {
            guard connection.send(String(character)) else { break }
            sent += 1
            usleep(200_000)
        }
        #expect(connection.isClosedByServer(), "still open after \(sent) bytes over \(Double(sent) * 0.2) s")
        _ = await running.server.stop()
    }

    @Test func junkAfterAValidRequestGetsTheAnswerThen400() async throws {
        let running = try await Self.start("serve-junk")
        let connection = try RawConnection(port: running.server.port, readTimeout: 300)
        let body = try running.requests.body(originalTransactionId: "1000", signedDate: running.clock.now())
        connection.send(Self.post(body) + "\u{01}\u{02} this is not HTTP\r\n\r\n")
        let reply = connection.readToEnd()
        let first = try #require(reply.range(of: "HTTP/1.1 200 OK"))
        #expect(reply[first.upperBound...].contains(#""promotionalOffer""#))
        let refusal = try #require(reply.range(of: "HTTP/1.1 400 Bad Request"))
        #expect(first.lowerBound < refusal.lowerBound)
        // Two pipelined valid requests are both answered, in order.
        let pipelined = try RawConnection(port: running.server.port, readTimeout: 300)
        pipelined.send(
            "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"
                + Self.post(try running.requests.body(originalTransactionId: "1002", signedDate: running.clock.now()))
                .replacingOccurrences(of: "Host: localhost\r\n", with: "Host: localhost\r\nConnection: close\r\n"))
        let both = pipelined.readToEnd()
        #expect(both.components(separatedBy: "HTTP/1.1 200 OK").count == 3, "\(both)")
        #expect(both.contains(#""alternateProduct""#))
        _ = await running.server.stop()
    }

    @Test func aDayWhoseListedDecisionsFileIsMissingIsRefused() async throws {
        let running = try await Self.start("serve-missing-decisions")
        let day = running.directory.appendingPathComponent("out/dt=2026-11-20")
        try FileManager.default.createDirectory(at: day, withIntermediateDirectories: true)
        try Data(#"{"asOf":"2026-11-20","outputs":[{"name":"retention_decisions.csv.gz","rows":4}]}"#.utf8)
            .write(to: day.appendingPathComponent("_manifest.json"))
        try Data().write(to: day.appendingPathComponent("_SUCCESS"))
        #expect(running.server.service.reload() == false)
        #expect(running.server.service.decisions.day == "2026-11-19")
        #expect(try await running.ask("1002")["alternateProduct"] != nil)
        let health = try await LoopbackClient.send("GET", running.server.address + "/healthz")
        #expect(health.body == #"{"status":"degraded","decisionsDay":"2026-11-19","decisions":4,"refusedDay":"2026-11-20"}"#)

        // A day whose manifest does not list the file (published before Retention Messaging) has no decisions.
        let older = running.directory.appendingPathComponent("out/dt=2026-11-21")
        try FileManager.default.createDirectory(at: older, withIntermediateDirectories: true)
        try Data(#"{"asOf":"2026-11-21","outputs":[]}"#.utf8).write(to: older.appendingPathComponent("_manifest.json"))
        try Data().write(to: older.appendingPathComponent("_SUCCESS"))
        #expect(running.server.service.reload() == true)
        #expect(running.server.service.decisions.day == "2026-11-21" && running.server.service.decisions.count == 0)
        _ = await running.server.stop()
    }

    @Test func sighupReloadsAndNeverStopsTheServer() async throws {
        let config = try RetentionDecisionsRunTests.config("serve-sighup", campaigns: ServeTests.campaigns)
        let output = config.deletingLastPathComponent().appendingPathComponent("out")
        try RetentionRequests.publish(ServeTests.rows, day: "2026-11-19", output: output)
        let (process, _, listening) = try ServeProcessTests.launch(config)
        let address = try #require(listening["listening"]?.stringValue)
        try RetentionRequests.publish(ServeTests.rows, day: "2026-11-20", output: output)
        kill(process.processIdentifier, SIGHUP)
        var health = ""
        for _ in 0..<50 {
            try await Task.sleep(nanoseconds: 100_000_000)
            health = try await LoopbackClient.send("GET", address + "/healthz").body
            if health.contains("2026-11-20") { break }
        }
        #expect(process.isRunning)
        #expect(health.contains(#""decisionsDay":"2026-11-20""#))
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
