import Foundation
import GRDB
import Testing
import WinbackAppStore
import WinbackJobs
import WinbackServer
import WinbackTestSupport

/// Campaigns through `winback run`: the ledger, cooldown, re-runs, the reject threshold and crashes.
@Suite struct CampaignRunTests {
    static func run(_ config: URL, asOf: String, ledger: URL? = nil) async throws -> RunJob.Outcome {
        try await RunJob.run(RunOptions(configPath: config.path, asOf: asOf, ledgerOverride: ledger?.path, isQuiet: true))
    }

    static func offers(_ config: URL, asOf: String) throws -> [JSONValue] {
        let url = config.deletingLastPathComponent().appendingPathComponent("out/dt=\(asOf)/offers.ndjson.gz")
        return try Gunzip.text(Array(try Data(contentsOf: url))).split(separator: "\n").map { try JSONParser.parse(String($0)) }
    }

    static func accounts(_ config: URL, asOf: String, campaign: String) throws -> Set<String> {
        var keys: Set<String> = []
        for offer in try offers(config, asOf: asOf) where offer["campaignId"]?.stringValue == campaign {
            if let key = offer["accountKey"]?.stringValue { keys.insert(key) }
        }
        return keys
    }

    static func ledgerCount(_ config: URL) throws -> Int {
        let path = config.deletingLastPathComponent().appendingPathComponent("state/ledger.sqlite").path
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        return try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM selections") ?? 0 }
    }

    @Test func nextDayExcludesAccountsInCooldown() async throws {
        let config = try SampleConfig.copy("cooldown")
        _ = try await Self.run(config, asOf: "2026-11-18")
        _ = try await Self.run(config, asOf: "2026-11-19")
        let first = try Self.accounts(config, asOf: "2026-11-18", campaign: "winback-voluntary")
        let second = try Self.accounts(config, asOf: "2026-11-19", campaign: "winback-voluntary")
        #expect(!first.isEmpty)
        #expect(first.isDisjoint(with: second), "accounts offered on 2026-11-18 are in the 90-day cooldown on 2026-11-19")
    }

    @Test func overThresholdPublishesWithoutOffersAndLeavesTheLedgerAlone() async throws {
        let config = try SampleConfig.copy("threshold-run") {
            $0.replacingOccurrences(of: "\"maxRejectRate\": 0.01", with: "\"maxRejectRate\": 0.001")
        }
        let outcome = try await Self.run(config, asOf: "2026-11-19")
        #expect(outcome.exitCode == 65)
        #expect(try Self.offers(config, asOf: "2026-11-19").isEmpty)
        #expect(try Self.ledgerCount(config) == 0)
        let summary = try JSONParser.parse(
            try Gunzip.text(Array(try Data(contentsOf: URL(fileURLWithPath: outcome.publishedPath + "/summary.json.gz")))))
        #expect(summary["offersSigned"] == .bool(false))
        let eligible = try Gunzip.text(
            Array(try Data(contentsOf: URL(fileURLWithPath: outcome.publishedPath + "/eligible_accounts.csv.gz"))))
        #expect(eligible.split(separator: "\n").count > 1)
        #expect(FileManager.default.fileExists(atPath: outcome.publishedPath + "/_SUCCESS"))
    }

    @Test(arguments: ["signed", "ledger", "published"])
    func killedAtAnyPhaseNeverYieldsTwoDifferentOffers(_ phase: String) throws {
        let config = try SampleConfig.copy("kill-\(phase)")
        let arguments = ["run", "--config", config.path, "--as-of", "2026-11-19", "--quiet"]
        let killed = try CommandRunner.run(arguments, environment: ["WINBACK_TEST_KILL_AT": phase])
        #expect(killed.exitCode != 0)
        let published = config.deletingLastPathComponent().appendingPathComponent("out/dt=2026-11-19/_SUCCESS").path
        #expect(FileManager.default.fileExists(atPath: published) == (phase == "published"))
        let stored = try Self.ledgerCount(config)
        #expect((stored > 0) == (phase != "signed"))
        // Re-running the day twice: the offers are the same both times (and the ledger's, if it had them).
        #expect(try CommandRunner.run(arguments).exitCode == 0)
        let once = try Self.offers(config, asOf: "2026-11-19")
        #expect(try CommandRunner.run(arguments).exitCode == 0)
        let twice = try Self.offers(config, asOf: "2026-11-19")
        #expect(!once.isEmpty)
        #expect(once == twice)
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: config.deletingLastPathComponent().appendingPathComponent("out").path
        )
        .filter { $0.hasPrefix(".tmp-") || $0.hasPrefix(".old-") }
        #expect(leftovers.isEmpty)
    }

    @Test func signRenewsOffersWithoutChangingWhoWasSelected() async throws {
        let config = try SampleConfig.copy("resign")
        _ = try await Self.run(config, asOf: "2026-11-19")
        let before = try Self.offers(config, asOf: "2026-11-19").filter { $0["campaignId"] == .string("retention-auto-renew-off") }
        let outcome = try SignJob.run(
            configPath: config.path, campaignId: "retention-auto-renew-off", asOf: "2026-11-19",
            now: { Date(timeIntervalSince1970: 1_900_000_000) }
        ) { _ in }
        let after = try outcome.lines.map { try JSONParser.parse($0) }
        #expect(after.map { $0["accountKey"] } == before.map { $0["accountKey"] })
        let timestamps = after.map { $0["timestamp"] }
        let issued = after.compactMap { $0["issuedAt"]?.stringValue }
        #expect(timestamps.allSatisfy { $0 == JSONValue.integer(1_900_000_000_000) })
        #expect(issued.allSatisfy { $0 == "2030-03-17T17:46:40.000Z" })
        let newNonces: Set<String> = Set(after.compactMap { $0["nonce"]?.stringValue })
        let oldNonces: Set<String> = Set(before.compactMap { $0["nonce"]?.stringValue })
        #expect(newNonces.isDisjoint(with: oldNonces))
    }

    /// docs/notifications-and-commitments.md: the sample's Apple win-back campaign gets unsigned lines (whom to show the offer), recorded
    /// and re-emitted by a re-run unchanged, and `winback sign` refuses it; promotional offers stay signed.
    @Test func appleWinBackOffersAreUnsignedRecordedAndReemitted() async throws {
        let config = try SampleConfig.copy("apple-win-back")
        _ = try await Self.run(config, asOf: "2026-11-19")
        let first = try Self.offers(config, asOf: "2026-11-19")
        let apple = first.filter { $0["campaignId"] == .string("winback-apple-eligible") }
        let promotional = first.filter { $0["campaignId"] == .string("winback-voluntary") }
        #expect(!apple.isEmpty && !promotional.isEmpty)
        for offer in apple {
            #expect(offer["offerType"] == .string("win_back"))
            for key in ["nonce", "timestamp", "keyId", "signatureV1", "jwsV2", "jwsIntroEligibility", "issuedAt", "expiresAt"] {
                #expect(offer[key] == .null, "\(key)")
            }
            guard case .array(let listed)? = offer["eligibleWinBackOfferIds"] else {
                Issue.record("no eligibleWinBackOfferIds")
                continue
            }
            #expect(listed.contains { $0.value == .string("winback.monthly.50off") })
        }
        #expect(promotional.allSatisfy { $0["offerType"] == .string("promotional") && $0["jwsV2"]?.stringValue != nil })
        let outcome = try await Self.run(config, asOf: "2026-11-19")
        #expect(outcome.summaryLine.contains(#""offersSigned":true"#))
        let again = try Self.offers(config, asOf: "2026-11-19").filter { $0["campaignId"] == .string("winback-apple-eligible") }
        #expect(again == apple)
        #expect {
            try SignJob.run(configPath: config.path, campaignId: "winback-apple-eligible", asOf: "2026-11-19") { _ in }
        } throws: { error in
            (error as? JobError)?.exitCode == 64 && "\(error)".contains("without a signature")
        }
    }

    /// A promotional campaign still asking for Apple's eligibility is a config error naming what to use instead.
    @Test func aPromotionalCampaignRequiringAppleEligibilityExits64() throws {
        let config = try SampleConfig.copy("withdrawn-rule") {
            $0.replacingOccurrences(
                of:
                    #""offer": { "type": "win_back", "productId": "com.example.winback.monthly", "offerIdentifier": "winback.monthly.50off" },"#,
                with:
                    #""offer": { "productId": "com.example.winback.monthly", "offerIdentifier": "winback.monthly.50off" }, "signatures": ["v2"],"#
            )
            .replacingOccurrences(
                of: #""rules": { "lapseReasons": ["voluntary"] },"#,
                with: #""rules": { "lapseReasons": ["voluntary"], "requireAppleEligibility": true },"#)
        }
        let result = try CommandRunner.run(["run", "--config", config.path, "--as-of", "2026-11-19"])
        #expect(result.exitCode == 64)
        #expect(result.firstErrorLine.contains("('winback-apple-eligible').rules.requireAppleEligibility: withdrawn"), "\(result.stderr)")
        #expect(result.firstErrorLine.contains(#"use offer.type "win_back""#))
    }

    @Test func missingKeyFileExits74AndBadKeyExits64() throws {
        let missing = try SampleConfig.copy("no-key")
        let result = try CommandRunner.run(
            ["run", "--config", missing.path, "--as-of", "2026-11-19"], environment: ["WINBACK_SIGNING_KEY_FILE": "/nonexistent/key.p8"])
        #expect(result.exitCode == 74)
        #expect(result.firstErrorLine == "winback: error: I/O error: /nonexistent/key.p8: no such file")

        let directory = try CommandRunner.temporaryDirectory("bad-key")
        let keyPath = directory.appendingPathComponent("key.p8")
        try "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".write(to: keyPath, atomically: true, encoding: .utf8)
        let bad = try CommandRunner.run(
            ["run", "--config", missing.path, "--as-of", "2026-11-19"], environment: ["WINBACK_SIGNING_KEY_FILE": keyPath.path])
        #expect(bad.exitCode == 64)
        #expect(bad.stderr.contains("signing.privateKeyFile: \(keyPath.path): expected an EC P-256 private key"))
        #expect(bad.stderr.contains("readable by group or others"))
        #expect(!bad.stderr.contains("AAAA"))
    }
}
