import Foundation
import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackJobs
import WinbackServer
import WinbackTestSupport

/// The nightly half of Retention Messaging (docs/retention-messaging.md): campaigns with `channel: "retention_messaging"` are
/// selected like any other, kept out of `offers.ndjson.gz`, and listed in `retention_decisions.csv.gz` while
/// their cooldown lasts; `summary.json.gz` counts the day's logged requests.
@Suite struct RetentionDecisionsRunTests {
    static let message = "0d6f1f4e-9d1c-4a57-8a4b-3f2d0c9e1a77"
    static let campaigns = """
        "campaigns": [
            { "id": "rm-offer", "audience": "retention", "channel": "retention_messaging", "messageIdentifier": "\(message)",
              "offer": { "offerIdentifier": "retention.monthly.1" },
              "rules": { "maxDaysToExpiry": 14 }, "holdoutPercent": 20, "cooldownDays": 30 },
            { "id": "rm-switch", "audience": "price_increase", "channel": "retention_messaging", "messageIdentifier": "\(message)",
              "offer": { "type": "alternate_product", "productId": "com.example.winback.annual", "billingPlanType": "MONTHLY" },
              "rules": { "maxDaysToExpiry": 30 }, "holdoutPercent": 0, "cooldownDays": 30 }
        ]
        }
        """

    static func config(_ name: String, campaigns: String = campaigns) throws -> URL {
        try SampleConfig.copy(name) { text in
            guard let start = text.range(of: "\"campaigns\": [") else { return text }
            return String(text[..<start.lowerBound]) + campaigns
        }
    }

    static func table(_ outcome: RunJob.Outcome, _ name: String) throws -> [[String?]] {
        let text = try Gunzip.text(Array(try Data(contentsOf: URL(fileURLWithPath: outcome.publishedPath + "/" + name))))
        return text.split(separator: "\n").dropFirst().map { CSVFormat.fields(of: String($0)) }
    }

    @Test func decisionsListEverySelectionWhileItsCooldownLasts() async throws {
        let config = try Self.config("retention-decisions")
        let log = config.deletingLastPathComponent().appendingPathComponent("state/retention-requests")
        try FileManager.default.createDirectory(at: log, withIntermediateDirectories: true)
        try """
        {"time":"2026-11-19T10:00:00Z","requestIdentifier":"a","originalTransactionId":"1","status":200,"campaignId":"rm-offer","variant":"treatment","kind":"promotional_offer","latencyMicros":900}
        {"time":"2026-11-19T10:02:00Z","requestIdentifier":null,"originalTransactionId":null,"status":400,"campaignId":null,"variant":null,"kind":null,"latencyMicros":50}

        """.write(to: log.appendingPathComponent("2026-11-19.ndjson"), atomically: true, encoding: .utf8)
        // A second server (--instance pod-b) logs to a file of its own, pushed notifications included: those
        // are not Retention Messaging requests.
        try """
        {"time":"2026-11-19T10:01:00Z","requestIdentifier":"b","originalTransactionId":"2","status":200,"campaignId":"rm-offer","variant":"treatment","kind":"promotional_offer","latencyMicros":800}
        {"time":"2026-11-19T10:03:00Z","route":"notifications","notificationUUID":"u","notificationType":"DID_RENEW","status":200,"latencyMicros":700}

        """.write(to: log.appendingPathComponent("2026-11-19.pod-b.ndjson"), atomically: true, encoding: .utf8)

        let first = try await CampaignRunTests.run(config, asOf: "2026-11-19")
        #expect(first.exitCode == 0)
        let eligible = try Self.table(first, "eligible_accounts.csv.gz")
        let decisions = try Self.table(first, "retention_decisions.csv.gz")
        #expect(!decisions.isEmpty && decisions.count == eligible.count)
        #expect(
            decisions.map { [$0[0] ?? "", $0[1] ?? ""] }
                == decisions.map { [$0[0] ?? "", $0[1] ?? ""] }.sorted { $0.lexicographicallyPrecedes($1) })
        for row in decisions {
            if row[3] == "holdout" {
                #expect(Array(row[4...]) == [nil, nil, nil, nil, nil])
            } else if row[1] == "rm-offer" {
                #expect(Array(row[4...]) == ["promotional_offer", Self.message, nil, "retention.monthly.1", nil])
            } else {
                #expect(Array(row[4...]) == ["alternate_product", Self.message, "com.example.winback.annual", nil, "MONTHLY"])
            }
        }
        // Never in offers.ndjson.gz; counted in the summary with nothing signed; the day's requests counted.
        #expect(try CampaignRunTests.offers(config, asOf: "2026-11-19").isEmpty)
        let summary = try OfferCodeRunTests.summary(first)
        #expect(summary["offersPerCampaign"]?["rm-offer"]?["signed"] == .integer(0))
        let requests = JSONText.render(try #require(summary["retentionRequests"]))
        #expect(
            requests
                == #"[{"campaignId":null,"variant":null,"kind":null,"requests":1},{"campaignId":"rm-offer","variant":"treatment","kind":"promotional_offer","requests":2}]"#
        )

        // The next day: yesterday's accounts are cooling down (not selected again) but keep their decisions.
        let next = try await CampaignRunTests.run(config, asOf: "2026-11-20")
        let kept = try Self.table(next, "retention_decisions.csv.gz")
        #expect(Set(decisions.map { "\($0[0] ?? "")/\($0[1] ?? "")" }).isSubset(of: Set(kept.map { "\($0[0] ?? "")/\($0[1] ?? "")" })))
        #expect(try OfferCodeRunTests.summary(next)["retentionRequests"] == .array([]))
    }

    @Test(arguments: [
        (
            #""channel": "retention_messaging", "offer": {"offerIdentifier": "o"}"#, "messageIdentifier",
            "expected the UUID of an approved retention message"
        ),
        (
            #""channel": "retention_messaging", "messageIdentifier": "not-a-uuid", "offer": {"offerIdentifier": "o"}"#, "messageIdentifier",
            "found 'not-a-uuid'"
        ),
        (
            #""channel": "retention_messaging", "messageIdentifier": "0d6f1f4e-9d1c-4a57-8a4b-3f2d0c9e1a77", "offer": {"type": "alternate_product"}"#,
            "offer.productId", "expected the product to switch to"
        ),
        (
            #""channel": "retention_messaging", "messageIdentifier": "0d6f1f4e-9d1c-4a57-8a4b-3f2d0c9e1a77", "offer": {"offerIdentifier": "o"}, "signatures": ["v1"]"#,
            "signatures", "expected none or [\"v2\"]"
        ),
        (#""offer": {"type": "message"}"#, "offer.type", "expected channel 'retention_messaging' for 'message'"),
        (#""channel": "email", "offer": {"offerIdentifier": "o"}"#, "channel", "expected 'offers' or 'retention_messaging'"),
    ])
    func retentionMessagingCampaignsAreCheckedNamingTheKey(fields: String, key: String, message: String) throws {
        let text =
            #"[{"id": "x", "audience": "retention", "rules": {"maxDaysToExpiry": 3}, "#
            + fields + "}]"
        guard case .array(let elements) = try JSONParser.parse(Array(text.utf8)) else { return }
        let values = elements.map(\.value)
        #expect {
            try CampaignParser.parse(values)
        } throws: { error in
            guard let error = error as? ConfigError else { return false }
            return error.key == "campaigns[0] ('x').\(key)" && error.message.contains(message)
        }
    }
}
