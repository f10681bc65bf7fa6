import Crypto
import Foundation
import Testing
import WinbackAppStore
import WinbackCrypto
import WinbackJobs
import WinbackServer
import WinbackTestSupport

/// `winback serve` (docs/retention-messaging.md) over loopback HTTP: requests signed the way the App Store signs them, answered
/// from a published day's `retention_decisions.csv.gz`.
@Suite struct ServeTests {
    static let message = RetentionDecisionsRunTests.message
    static let fallback = "7a1c2e3f-4b5d-4e6f-8a9b-0c1d2e3f4a5b"
    /// 2026-11-20T12:00:00Z: the clock of every in-process server.
    static let noon: Int64 = (InstantFormat.days(year: 2026, month: 11, day: 20) * 24 + 12) * 3_600_000
    /// The campaigns of the nightly tests (an offer campaign with a holdout, a switch-plan one) and a default message.
    static let campaigns =
        #""retentionMessaging": { "defaultMessageIdentifier": "\#(fallback)" },"# + "\n" + RetentionDecisionsRunTests.campaigns
    /// Decisions by original transaction id: treatment offer, holdout, switch, and one in both campaigns.
    static let rows: [[String?]] = [
        ["1000", "rm-offer", "a1", "treatment", "promotional_offer", message, nil, "retention.monthly.1", nil],
        ["1001", "rm-offer", "a2", "holdout", nil, nil, nil, nil, nil],
        ["1002", "rm-switch", "a3", "treatment", "alternate_product", message, "com.example.winback.annual", nil, "MONTHLY"],
        ["1003", "rm-offer", "a4", "holdout", nil, nil, nil, nil, nil],
        ["1003", "rm-switch", "a4", "treatment", "alternate_product", message, "com.example.winback.annual", nil, "MONTHLY"],
    ]

    /// A running in-process server over `rows` published for 2026-11-19, with its config's directory and clock.
    struct Running {
        var server: RetentionServer
        var directory: URL
        var clock: TestClock
        var requests: RetentionRequests

        func post(_ body: [UInt8], path: String = "/retention") async throws -> (status: Int, headers: [String: String], body: String) {
            try await LoopbackClient.send("POST", server.address + path, body: body)
        }

        func ask(_ originalTransactionId: String) async throws -> JSONValue {
            let reply = try await post(try requests.body(originalTransactionId: originalTransactionId, signedDate: clock.now()))
            #expect(reply.status == 200, "\(reply.body)")
            #expect(reply.headers["content-type"] == "application/json")
            return try JSONParser.parse(Array(reply.body.utf8))
        }

        func logLines() throws -> [JSONValue] {
            let path = directory.appendingPathComponent("state/retention-requests/2026-11-20.ndjson")
            return try String(contentsOf: path, encoding: .utf8).split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)) }
        }
    }

    static func start(
        _ name: String, campaigns: String = campaigns, rows: [[String?]] = rows, reloadSeconds: Double = 2,
        tls: (certificatePath: String, keyPath: String)? = nil
    ) async throws -> Running {
        let config = try RetentionDecisionsRunTests.config(name, campaigns: campaigns)
        let directory = config.deletingLastPathComponent()
        try RetentionRequests.publish(rows, day: "2026-11-19", output: directory.appendingPathComponent("out"))
        let clock = TestClock(noon)
        var options = ServeOptions(configPath: config.path, now: { clock.now() })
        options.port = 0
        options.isQuiet = true
        options.reloadIntervalSeconds = reloadSeconds
        let service = try ServeJob.prepare(options) { _ in }
        let server = try await RetentionServer.start(service: service, host: "127.0.0.1", port: 0, tls: tls)
        return Running(server: server, directory: directory, clock: clock, requests: try RetentionRequests())
    }

    /// The sample's signing key, whose public half checks the offers.
    static func signingKey() throws -> P256.Signing.PublicKey {
        let pem = try String(
            contentsOf: Fixtures.packageRoot.appendingPathComponent("sample-data/keys/SubscriptionKey_TESTKEY001.p8"), encoding: .utf8)
        return try P256.Signing.PrivateKey(pemRepresentation: pem).publicKey
    }

    @Test func answersTreatmentHoldoutSwitchAndUnknownSubscriptions() async throws {
        let running = try await Self.start("serve-answers")
        // Treatment of a promotional campaign: a V2 offer signed now for the request's subscription and product.
        let offer = try await running.ask("1000")
        let promotional = try #require(offer["promotionalOffer"])
        #expect(promotional["messageIdentifier"] == .string(Self.message))
        let jws = try #require(promotional["promotionalOfferSignatureV2"]?.stringValue)
        let segments = jws.split(separator: ".").map(String.init)
        #expect(segments.count == 3)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64.decodeURL(segments[2])))
        #expect(try Self.signingKey().isValidSignature(signature, for: Array((segments[0] + "." + segments[1]).utf8)))
        let claims = try JSONParser.parse(try #require(Base64.decodeURL(segments[1])))
        #expect(claims["transactionId"] == .string("1000"))
        #expect(claims["productId"] == .string("com.example.winback.monthly"))
        #expect(claims["offerIdentifier"] == .string("retention.monthly.1"))
        #expect(claims["aud"] == .string("promotional-offer"))
        #expect(claims["bid"] == .string("com.example.winback"))
        #expect(claims["iat"] == .integer(Self.noon / 1000))
        let header = try JSONParser.parse(try #require(Base64.decodeURL(segments[0])))
        #expect(header["kid"] == .string("TESTKEY001"))

        // Holdout and unknown subscriptions: the default message. A switch: the alternate product.
        let fallback = #"{"message":{"messageIdentifier":"\#(Self.fallback)"}}"#
        #expect(JSONText.render(try await running.ask("1001")) == fallback)
        #expect(JSONText.render(try await running.ask("999999")) == fallback)
        let switchPlan =
            #"{"alternateProduct":{"messageIdentifier":"\#(Self.message)","productId":"com.example.winback.annual","billingPlanType":"MONTHLY"}}"#
        #expect(JSONText.render(try await running.ask("1002")) == switchPlan)
        // In two campaigns: the first in config order decides, and its holdout row means the fallback.
        #expect(JSONText.render(try await running.ask("1003")) == fallback)

        let summary = await running.server.stop()
        #expect(summary.contains(#""responses":5"#) && summary.contains(#""refused":0"#))
        let log = try running.logLines()
        #expect(log.count == 5)
        #expect(log.map { $0["kind"]?.stringValue ?? "-" } == ["promotional_offer", "message", "message", "alternate_product", "message"])
        #expect(log.map { $0["variant"]?.stringValue ?? "-" } == ["treatment", "holdout", "-", "treatment", "holdout"])
        #expect(log.map { $0["campaignId"]?.stringValue ?? "-" } == ["rm-offer", "rm-offer", "-", "rm-switch", "rm-offer"])
        #expect(log.allSatisfy { $0["status"] == .integer(200) && { if case .integer? = $0["latencyMicros"] { true } else { false } }($0) })
        #expect(log[0]["originalTransactionId"] == .string("1000") && log[0]["time"] == .string("2026-11-20T12:00:00.000Z"))
    }

    @Test func withoutADefaultMessageTheFallbackIsEmpty() async throws {
        let campaigns = Self.campaigns.replacingOccurrences(
            of: #""retentionMessaging": { "defaultMessageIdentifier": "\#(Self.fallback)" },"#, with: "")
        let running = try await Self.start("serve-empty-fallback", campaigns: campaigns)
        #expect(JSONText.render(try await running.ask("1001")) == "{}")
        #expect(JSONText.render(try await running.ask("424242")) == "{}")
        _ = await running.server.stop()
        #expect(try running.logLines().map { $0["kind"] } == [.null, .null])
    }

    /// Each bad request and the error it gets (400 unless said), none with an offer.
    @Test func refusesEveryBadRequest() async throws {
        let running = try await Self.start("serve-refusals")
        let requests = running.requests
        let now = running.clock.now()
        let foreign = try RetentionRequests(seed: 7)
        let replayed = UUID().uuidString.lowercased()
        let valid = try requests.body(originalTransactionId: "1000", requestIdentifier: replayed, signedDate: now)
        #expect(try await running.post(valid).status == 200)
        let good = try requests.jws(RetentionRequests.payload(originalTransactionId: "1000", requestIdentifier: "r-1", signedDate: now))
        let cases: [(String, [UInt8], String)] = [
            ("not JSON", Array("signedPayload=abc".utf8), "malformed_body"),
            ("no signedPayload", Array(#"{"payload":"x"}"#.utf8), "malformed_body"),
            ("signedPayload not a string", Array(#"{"signedPayload":42}"#.utf8), "malformed_body"),
            ("not a JWS", RetentionRequests.body("abc"), "malformed_jws"),
            ("bad signature", RetentionRequests.body(DamagedSignature.of(good)), "invalid_signature"),
            ("untrusted chain", try foreign.body(originalTransactionId: "1000", signedDate: now), "untrusted_chain"),
            (
                "wrong app",
                try requests.body(originalTransactionId: "1000", signedDate: now) { $0[1].1 = .integer(99) }, "wrong_app"
            ),
            (
                "wrong environment",
                try requests.body(originalTransactionId: "1000", signedDate: now) { $0[6].1 = .string("Sandbox") }, "wrong_environment"
            ),
            ("signed 6 minutes ago", try requests.body(originalTransactionId: "1000", signedDate: now - 360_000), "stale_request"),
            ("signed 6 minutes ahead", try requests.body(originalTransactionId: "1000", signedDate: now + 360_000), "stale_request"),
            ("replayed", valid, "replayed_request"),
            (
                "no originalTransactionId",
                try requests.body(originalTransactionId: "1000", signedDate: now) { $0.remove(at: 0) }, "malformed_request"
            ),
            (
                "signedDate a string",
                try requests.body(originalTransactionId: "1000", signedDate: now) { $0[5].1 = .string("today") }, "invalid_field"
            ),
        ]
        for (name, body, code) in cases {
            let reply = try await running.post(body)
            #expect(reply.status == 400, "\(name)")
            #expect(reply.body == #"{"error":"\#(code)"}"#, "\(name): \(reply.body)")
        }
        // 4 minutes 59 s either way is fresh.
        let edge = try requests.body(originalTransactionId: "1000", signedDate: now - 299_000)
        #expect(try await running.post(edge).status == 200)

        let large = Array(repeating: UInt8(ascii: " "), count: 64 * 1024 + 1)
        #expect(try await running.post(large).status == 413)
        #expect(try await running.post(valid, path: "/retention/x").status == 404)
        #expect(try await running.post(valid, path: "/").status == 404)
        let get = try await LoopbackClient.send("GET", running.server.address + "/retention")
        #expect(get.status == 405 && get.headers["allow"] == "POST")
        #expect(try await LoopbackClient.send("DELETE", running.server.address + "/healthz").status == 405)
        // The server still answers after all that.
        #expect(try await running.ask("1002")["alternateProduct"] != nil)

        let metrics = try await LoopbackClient.send("GET", running.server.address + "/metrics")
        #expect(metrics.status == 200 && metrics.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        for line in [
            #"winback_retention_requests_total{outcome="stale_request"} 2"#,
            #"winback_retention_requests_total{outcome="malformed_body"} 3"#,
            #"winback_retention_requests_total{outcome="body_too_large"} 1"#,
            #"winback_retention_requests_total{outcome="not_found"} 2"#,
            #"winback_retention_request_duration_seconds_count 18"#,
            #"winback_retention_decisions{day="2026-11-19"} 4.0"#,
        ] {
            #expect(metrics.body.contains(line + "\n"), "\(line)")
        }
        _ = await running.server.stop()
        // Every response to /retention is in the log, refusals with their error and no offer.
        let log = try running.logLines()
        #expect(log.count == 18)
        let refused = log.filter { $0["status"] != .integer(200) }
        #expect(refused.count == 15)
        #expect(refused.allSatisfy { $0["kind"] == .null && $0["error"]?.stringValue != nil })
        #expect(log.filter { $0["error"] == .string("replayed_request") }.first?["requestIdentifier"] == .string(replayed))
    }

    /// Seeded mutants of a valid request (bytes changed, cut, spliced) and of its JWS: each is answered, never
    /// a crash, and none but the unchanged request gets an offer.
    @Test func mutatedRequestsAreRefusedNeverFatal() async throws {
        let running = try await Self.start("serve-fuzz")
        let service = running.server.service
        let now = running.clock.now()
        let payload = RetentionRequests.payload(originalTransactionId: "1000", requestIdentifier: "fixed-id", signedDate: now)
        let jws = try running.requests.jws(payload)
        let valid = RetentionRequests.body(jws)
        var mutator = Mutator(state: 0x5EED_0040)
        var offers = 0
        for round in 0..<600 {
            let body =
                round % 2 == 0
                ? mutator.mutate(valid, other: Array(#"{"signedPayload":"a.b.c"}"#.utf8))
                : RetentionRequests.body(String(decoding: mutator.mutate(Array(jws.utf8), other: Array("eyJ.x5c".utf8)), as: UTF8.self))
            let reply = await service.handle(method: "POST", target: "/retention", body: body)
            #expect([200, 400].contains(reply.status))
            if String(decoding: reply.body, as: UTF8.self).contains("promotionalOffer") { offers += 1 }
        }
        // Only an unchanged signed request can carry an offer, and its identifier is then remembered.
        #expect(offers <= 1)
        _ = await running.server.stop()
    }

    @Test func picksUpANewlyPublishedDayWithoutARestart() async throws {
        let running = try await Self.start("serve-reload", reloadSeconds: 0.2)
        #expect(try await running.ask("2000")["message"] != nil)
        let health = try await LoopbackClient.send("GET", running.server.address + "/healthz")
        #expect(health.body == #"{"status":"ok","decisionsDay":"2026-11-19","decisions":4}"#)

        // The next night publishes 2026-11-20 with a decision for 2000; a day without _SUCCESS is not read.
        let output = running.directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output.appendingPathComponent("dt=2026-11-21"), withIntermediateDirectories: true)
        try RetentionRequests.publish(
            [["2000", "rm-switch", "b1", "treatment", "alternate_product", Self.message, "com.example.winback.annual", nil, nil]],
            day: "2026-11-20", output: output)
        var answer = JSONValue.null
        for _ in 0..<100 {
            try await Task.sleep(nanoseconds: 100_000_000)
            answer = try await running.ask("2000")
            if answer["alternateProduct"] != nil { break }
        }
        #expect(answer["alternateProduct"]?["productId"] == .string("com.example.winback.annual"))
        #expect(answer["alternateProduct"]?["billingPlanType"] == nil)
        #expect(try await LoopbackClient.send("GET", running.server.address + "/healthz").body.contains(#""decisionsDay":"2026-11-20""#))
        _ = await running.server.stop()
    }

    @Test func aBrokenDayKeepsThePreviousDecisions() async throws {
        let running = try await Self.start("serve-broken-day", reloadSeconds: 0.2)
        let broken = running.directory.appendingPathComponent("out/dt=2026-11-20")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try Data("not gzip".utf8).write(to: broken.appendingPathComponent("retention_decisions.csv.gz"))
        try Data().write(to: broken.appendingPathComponent("_SUCCESS"))
        try await Task.sleep(nanoseconds: 1_000_000_000)
        #expect(running.server.service.decisions.day == "2026-11-19")
        #expect(try await running.ask("1002")["alternateProduct"] != nil)
        _ = await running.server.stop()
    }

    @Test func refusesBadFlagsAndConfigs() async throws {
        let config = try RetentionDecisionsRunTests.config("serve-flags", campaigns: Self.campaigns)
        var options = ServeOptions(configPath: config.path)
        options.tlsCertificatePath = "cert.pem"
        #expect(throws: JobError.self) { try ServeJob.prepare(options) { _ in } }
        options.tlsCertificatePath = nil
        options.port = 70_000
        #expect(throws: JobError.self) { try ServeJob.prepare(options) { _ in } }

        let bad = try RetentionDecisionsRunTests.config(
            "serve-bad-default",
            campaigns: Self.campaigns.replacingOccurrences(of: Self.fallback, with: "not-a-uuid"))
        let result = try CommandRunner.run(["serve", "--config", bad.path, "--port", "0"])
        #expect(result.exitCode == 64)
        #expect(result.firstErrorLine.contains("retentionMessaging.defaultMessageIdentifier"))
    }

    @Test func twoServersCannotShareAPort() async throws {
        let running = try await Self.start("serve-port")
        let config = running.directory.appendingPathComponent("config.json")
        let result = try CommandRunner.run(["serve", "--config", config.path, "--port", String(running.server.port), "--quiet"])
        #expect(result.exitCode == 74)
        #expect(result.firstErrorLine.contains("cannot listen"))
        _ = await running.server.stop()
    }
}
