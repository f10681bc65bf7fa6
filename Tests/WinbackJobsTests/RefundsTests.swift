import Foundation
import Synchronization
import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackJobs
import WinbackRemote
import WinbackSampleData
import WinbackTestSupport

/// `winback refunds` (docs/refunds.md) against ``MockAppStoreServer`` on loopback, on ``RefundFixture``'s crafted
/// requests: each decided by its policies and overrides, one accepted PUT per request that should be answered (the
/// JWT and every body checked), nothing on a re-run, temporary faults retried, a refusal recorded, 77 for a refused
/// key, a kill between send and record never recorded twice; and the nightly run's `refund_requests.csv.gz`.
@Suite struct RefundsTests {
    /// 2026-11-20 12:00 UTC, the job's clock.
    static let now = InstantFormat.days(year: 2026, month: 11, day: 20) * RefundFixture.day + 12 * RefundFixture.hour

    static func server() throws -> MockAppStoreServer {
        try MockAppStoreServer(
            publicKey: SyncTests.publicKey(), keyId: SyncTests.keyId, issuerId: SyncTests.issuerId, bundleId: SyncTests.bundleId,
            notifications: [])
    }

    static func options(_ fixture: RefundFixture, lines: LogLines? = nil) -> RefundsOptions {
        var options = RefundsOptions(
            configPath: fixture.config.path, now: { Date(timeIntervalSince1970: Double(fixture.now) / 1000) }, sleep: { _ in },
            jitter: { 0.5 }, environment: [:])
        options.retryPolicy = RetryPolicy(maxAttempts: 4, baseDelay: 0.01, maxDelay: 0.1, maxRetryAfter: 5)
        options.requestTimeout = 20
        options.isQuiet = true
        options.printLine = { line in lines?.append(line) }
        return options
    }

    /// The consumption PUTs the server received: (transaction id, body).
    static func puts(_ server: MockAppStoreServer) -> [(id: String, body: String)] {
        server.requests.filter { $0.target.hasPrefix(MockAppStoreServer.consumptionPath) }.map {
            (String($0.target.dropFirst(MockAppStoreServer.consumptionPath.count)), $0.body)
        }
    }

    @Test func eachRequestGetsItsPolicysAnswerOnceAndARerunSendsNothing() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let fixture = try RefundFixture.make("refunds-once", now: Self.now, server: server)
        // The first PUT meets a 429 and a 500 before it is accepted.
        server.inject([.status(429, retryAfter: "1"), .status(500)])
        let outcome = try await RefundsJob.run(Self.options(fixture)) { _ in }
        #expect(outcome.requests == 6 && outcome.sent == 4 && outcome.late == 1 && outcome.noResponse == 1 && outcome.refused == 0)
        #expect(outcome.retries == 2)
        let sent = Self.puts(server)
        #expect(sent.count == 6, "4 answers, one of them tried 3 times")
        var accepted: [String: String] = [:]
        for put in sent { accepted[put.id] = put.body }
        let shouldSend = fixture.expected.filter { $0.body != nil }
        #expect(accepted.count == shouldSend.count)
        for expected in shouldSend { #expect(accepted[expected.transactionId] == expected.body, "\(expected.uuid)") }
        #expect(server.requests.allSatisfy { $0.method == "PUT" && $0.authorization.hasPrefix("Bearer ") })
        #expect(sent.allSatisfy { !$0.body.contains("consumptionPercentage") })

        // The ledger holds each request once, with its decision and answer.
        let answers = try OfferLedger.refundAnswers(
            path: fixture.config.deletingLastPathComponent().appendingPathComponent("state/ledger.sqlite").path)
        #expect(answers.count == 6)
        for expected in fixture.expected {
            let answer = try #require(answers[expected.uuid], "\(expected.uuid)")
            #expect(answer.decision.policyId == expected.policyId && answer.decision.preference.rawValue == expected.preference)
            #expect(answer.status.rawValue == expected.status, "\(expected.uuid)")
        }

        // Again: nothing is sent.
        let again = try await RefundsJob.run(Self.options(fixture)) { _ in }
        #expect(again.alreadyAnswered == 6 && again.sent == 0 && again.late == 0)
        #expect(Self.puts(server).count == 6)
    }

    @Test func aRefusedAnswerIsRecordedWithAppleErrorCodeAndTheRunGoesOn() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let fixture = try RefundFixture.make("refunds-refused", now: Self.now, server: server)
        server.inject([.none, .status(400)])
        let lines = LogLines()
        var options = Self.options(fixture)
        options.isQuiet = false
        let outcome = try await RefundsJob.run(options) { lines.append($0) }
        #expect(outcome.sent == 3 && outcome.refused == 1)
        // The second answer sent (r2's, by request time) was refused: its warning names the transaction and Apple's code.
        #expect(lines.all.contains { $0.contains("transaction 3000000102") && $0.contains("HTTP 400") && $0.contains("errorCode 4000000") })
        let ledger = fixture.config.deletingLastPathComponent().appendingPathComponent("state/ledger.sqlite").path
        let refused = try #require(try OfferLedger.refundAnswers(path: ledger)["00000000-0000-4000-8000-0000000000b2"])
        #expect(refused.status == .refused && refused.httpStatus == 400 && refused.errorCode == 4_000_000)
        // A refusal is an answer: not sent again.
        _ = try await RefundsJob.run(Self.options(fixture)) { _ in }
        #expect(Self.puts(server).count == 4)
    }

    @Test func aTimeoutIsRetriedAndARefusedKeyIs77() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let fixture = try RefundFixture.make("refunds-timeout", now: Self.now, server: server)
        server.inject([.slow(1.5)])
        var options = Self.options(fixture)
        options.requestTimeout = 0.5
        let outcome = try await RefundsJob.run(options) { _ in }
        #expect(outcome.sent == 4 && outcome.retries == 1)

        let other = try Self.server()
        defer { other.stop() }
        let refusedKey = try RefundFixture.make("refunds-401", now: Self.now, server: other)
        other.inject([.status(401)])
        do {
            _ = try await RefundsJob.run(Self.options(refusedKey)) { _ in }
            Issue.record("a refused key must end the job")
        } catch let error as JobError {
            #expect(error.exitCode == 77, "\(error)")
        }
        // The request in flight stays decided, not answered: the next run sends it.
        let again = try await RefundsJob.run(Self.options(refusedKey)) { _ in }
        #expect(again.sent == 4 && again.alreadyAnswered == 1 && again.noResponse == 1)
    }

    @Test func aDryRunPrintsEveryDecisionAndSendsAndWritesNothing() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let fixture = try RefundFixture.make("refunds-dry", now: Self.now, server: server)
        let lines = LogLines()
        var options = Self.options(fixture, lines: lines)
        options.isDryRun = true
        let outcome = try await RefundsJob.run(options) { _ in }
        #expect(outcome.isDryRun && outcome.sent == 4 && outcome.late == 1 && outcome.noResponse == 1)
        #expect(server.requests.isEmpty)
        #expect(
            !FileManager.default.fileExists(
                atPath: fixture.config.deletingLastPathComponent().appendingPathComponent("state/ledger.sqlite").path))
        let decisions = try lines.all.map { try JSONParser.parse(Array($0.utf8)) }
        #expect(decisions.count == 6)
        for expected in fixture.expected {
            let line = try #require(decisions.first { $0["notificationUUID"] == .string(expected.uuid) })
            #expect(line["preference"] == .string(expected.preference), "\(expected.uuid)")
            #expect(line["policyId"] == expected.policyId.map(JSONValue.string) ?? .null)
            let action = expected.status == "sent" ? "send" : expected.status
            #expect(line["action"] == .string(action), "\(expected.uuid)")
        }
    }

    /// Killed after Apple accepted the first answer and before it was recorded: the next run sends that one again
    /// (Apple keeps the last answer) and the rest once; the ledger holds each request once.
    @Test func aKillBetweenSendAndRecordRepeatsOnlyTheOneInFlight() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let fixture = try RefundFixture.make("refunds-kill", now: now, server: server)
        let killed = try CommandRunner.run(
            ["refunds", "--config", fixture.config.path, "--quiet", "--no-store"], environment: ["WINBACK_TEST_KILL_AT": "refund-sent"])
        #expect(killed.exitCode == 9 || killed.exitCode == 137 || killed.exitCode < 0 || killed.exitCode > 128, "\(killed.exitCode)")
        #expect(Self.puts(server).map(\.id) == ["3000000003"])
        let result = try CommandRunner.run(["refunds", "--config", fixture.config.path, "--quiet"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let summary = try JSONParser.parse(Array((result.stdout.split(separator: "\n").last.map(String.init) ?? "").utf8))
        #expect(
            summary["sent"] == .integer(4) && summary["alreadyAnswered"] == .integer(1) && summary["noResponse"] == .integer(1),
            "\(result.stdout)")
        #expect(Self.puts(server).map(\.id) == ["3000000003", "3000000003", "3000000102", "3000000401", "3000000501"])
        let answers = try OfferLedger.refundAnswers(
            path: fixture.config.deletingLastPathComponent().appendingPathComponent("state/ledger.sqlite").path)
        #expect(answers.count == 6 && answers.values.filter { $0.status == .sent }.count == 4)
    }

    /// The nightly run lists every request with its recorded answer and Apple's later decision.
    @Test func theNightlyRunListsEveryRequestWithItsAnswerAndOutcome() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let fixture = try RefundFixture.make("refunds-report", now: Self.now, server: server)
        _ = try await RefundsJob.run(Self.options(fixture)) { _ in }
        let outcome = try await RunJob.run(RunOptions(configPath: fixture.config.path, asOf: "2026-11-21", isQuiet: true))
        #expect(outcome.exitCode == 0)
        let day = URL(fileURLWithPath: outcome.publishedPath)
        let text = try Gunzip.text(Array(try Data(contentsOf: day.appendingPathComponent("refund_requests.csv.gz"))))
        let rows = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(
            rows[0].joined(separator: ",")
                == "notification_uuid,transaction_id,original_transaction_id,account_key,product_id,storefront,reason,requested_at,deadline_at,policy_id,preference,delivery_status,sample_content_provided,answered_at,answer_status,outcome,outcome_at,refund_amount,currency"
        )
        #expect(rows.count == 7)
        let byUUID = Dictionary(uniqueKeysWithValues: rows.dropFirst().map { ($0[0], $0) })
        for expected in fixture.expected {
            let row = try #require(byUUID[expected.uuid])
            #expect(row[1] == expected.transactionId && row[9] == (expected.policyId ?? "") && row[10] == expected.preference)
            #expect(row[14] == expected.status, "\(expected.uuid)")
        }
        let r1 = try #require(byUUID["00000000-0000-4000-8000-0000000000a1"])
        #expect(r1[3] == "1a1a1a1a-0000-4000-8000-000000000001" && r1[6] == "UNINTENDED_PURCHASE" && r1[12] == "true")
        #expect(r1[15] == "refunded" && r1[17] == "9990" && r1[18] == "USD")
        #expect(r1[8] == InstantFormat.iso8601(milliseconds: Self.now - 6 * RefundFixture.hour + 12 * RefundFixture.hour))
        #expect(byUUID["00000000-0000-4000-8000-0000000000b2"]?[15] == "declined")
        #expect(byUUID["00000000-0000-4000-8000-0000000000c3"]?[15] == "pending")

        let summary = try JSONParser.parse(try Gunzip.bytes(Array(try Data(contentsOf: day.appendingPathComponent("summary.json.gz")))))
        let refunds = try #require(summary["refundRequests"])
        #expect(refunds["received"] == .integer(6) && refunds["answered"] == .integer(4) && refunds["late"] == .integer(1))
        guard case .array(let policies)? = refunds["policies"] else { throw FixtureError(description: "no policies") }
        let accidental = try #require(policies.map(\.value).first { $0["policyId"] == .string("accidental-new") })
        #expect(accidental["refunded"] == .integer(1) && accidental["refundedAmount"] == .integer(9990))
        let page = try String(contentsOf: day.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(page.contains("Refund requests") && page.contains("repeat-refunders"))
    }

    /// Shards and the merge publish the one machine's day, refund requests included (each request travels in its
    /// shard's `refunds.wbr`; the merge adds the ledger's answers).
    @Test func shardsAndTheMergePublishTheOneMachinesRefundRequests() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let fixture = try RefundFixture.make("refunds-shards", now: Self.now, server: server)
        _ = try await RefundsJob.run(Self.options(fixture)) { _ in }
        let work = fixture.config.deletingLastPathComponent()
        let ledger = work.appendingPathComponent("state/ledger.sqlite").path
        func options(_ output: URL) -> RunOptions {
            RunOptions(
                configPath: fixture.config.path, asOf: "2026-11-21", outputOverride: output.path, ledgerOverride: ledger, isQuiet: true)
        }
        let single = work.appendingPathComponent("single")
        _ = try await RunJob.run(options(single))
        let reference = try VerifiedStoreTests.published(single, asOf: "2026-11-21")
        let encoded = try #require(reference["refund_requests.csv.gz"])
        let table = try Gunzip.text(Array(try #require(Data(base64Encoded: encoded))))
        #expect(table.split(separator: "\n").count == 7)
        for count in [2, 3] {
            var partials: [String] = []
            for index in 0..<count {
                var shard = options(work.appendingPathComponent("unused"))
                shard.partialDirectory = work.appendingPathComponent("partial-\(count)-\(index)").path
                _ = try await ShardJob.run(shard, shard: try #require(ShardSpec(index: index, count: count)))
                partials.append(try #require(shard.partialDirectory))
            }
            let merged = work.appendingPathComponent("merged-\(count)")
            #expect(try await MergeJob.run(options(merged), partialDirectories: partials).exitCode == 0)
            let files = try VerifiedStoreTests.published(merged, asOf: "2026-11-21")
            #expect(Set(files.keys) == Set(reference.keys))
            for (name, bytes) in reference { #expect(files[name] == bytes, "\(name) differs from one machine's (N = \(count))") }
        }
    }

    /// `winback refunds` without a `refunds` block, or with a bad one, is 64 naming the key.
    @Test func aConfigWithoutRefundsOrWithABadOneIs64NamingTheKey() throws {
        let server = try Self.server()
        defer { server.stop() }
        let fixture = try RefundFixture.make(
            "refunds-bad-config", now: Self.now, server: server, policies: #"[{"id": "a", "preference": "REFUSE"}]"#)
        let bad = try CommandRunner.run(["refunds", "--config", fixture.config.path, "--dry-run", "--quiet"])
        #expect(bad.exitCode == 64 && bad.firstErrorLine.contains("refunds.policies[0].preference"), "\(bad.stderr)")
        let none = try HardeningTests.signedConfig("refunds-none", pki: try TestPKI.make(seed: 44), files: [:])
        let missing = try CommandRunner.run(["refunds", "--config", none.path, "--dry-run", "--quiet"])
        #expect(missing.exitCode == 64 && missing.firstErrorLine.contains("refunds"), "\(missing.stderr)")
    }
}
