import Foundation
import GRDB
import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackJobs
import WinbackServer
import WinbackTestSupport

/// Offer-code campaigns through `winback run` (docs/campaigns.md): codes given after the holdout split in account-key
/// order, a short pool cutting the selection, each code once across campaigns, days and re-runs, redemption
/// URLs, the summary's `codesLeft`/`codesShort`, and the page.
@Suite struct OfferCodeRunTests {
    static let campaigns = """
        "campaigns": [
            { "id": "codes-winback", "audience": "win_back",
              "offer": { "type": "offer_code", "offerIdentifier": "winback.code.ref", "codes": "codes.csv" },
              "rules": { "minDaysSinceLapse": 7, "maxDaysSinceLapse": 365, "lapseReasons": ["voluntary", "billing_error", "price_increase", "other", "unknown"] },
              "holdoutPercent": 20, "cooldownDays": 0 },
            { "id": "codes-second", "audience": "win_back",
              "offer": { "type": "offer_code", "offerIdentifier": "winback.code.ref", "codes": "codes.csv" },
              "rules": { "minDaysSinceLapse": 7, "maxDaysSinceLapse": 365, "lapseReasons": ["voluntary"] },
              "holdoutPercent": 0, "cooldownDays": 0 },
            { "id": "custom-code", "audience": "win_back",
              "offer": { "type": "offer_code", "offerIdentifier": "custom.ref", "customCode": "COME BACK/50" },
              "rules": { "lapseReasons": ["voluntary"] }, "holdoutPercent": 0 }
        ]
        }
        """

    /// A sample config with the offer-code campaigns and a pool of `codes` codes (one expired before the day,
    /// another expiring after it, an extra column, a repeated code).
    static func config(_ name: String, codes: Int) throws -> URL {
        let config = try SampleConfig.copy(name) { text in
            guard let start = text.range(of: "\"campaigns\": [") else { return text }
            return String(text[..<start.lowerBound]) + campaigns
        }
        var pool = "Reference Name,Code,expirationDate\n"
        pool += "ref,EXPIRED1,2026-11-01\n"
        for index in 0..<codes { pool += "ref,CODE\(String(format: "%04d", index)),\(index == 0 ? "2027-01-31" : "")\n" }
        pool += "ref,CODE0001,\n"
        try pool.write(to: config.deletingLastPathComponent().appendingPathComponent("codes.csv"), atomically: true, encoding: .utf8)
        return config
    }

    static func summary(_ outcome: RunJob.Outcome) throws -> JSONValue {
        try JSONParser.parse(try Gunzip.text(Array(try Data(contentsOf: URL(fileURLWithPath: outcome.publishedPath + "/summary.json.gz")))))
    }

    @Test func codesAreGivenOnceAndAShortPoolCutsTheSelection() async throws {
        let config = try Self.config("offer-codes", codes: 12)
        let first = try await CampaignRunTests.run(config, asOf: "2026-11-18")
        #expect(first.exitCode == 0)
        let offers = try CampaignRunTests.offers(config, asOf: "2026-11-18")
        let coded = offers.filter { $0["offerType"] == .string("offer_code") }
        let pooled = coded.filter { $0["campaignId"]?.stringValue != "custom-code" }
        // 12 codes for two campaigns: every code given once, in file order, none expired, none twice.
        let codes = pooled.compactMap { $0["offerCode"]?.stringValue }
        #expect(codes.count == 12 && Set(codes).count == 12 && !codes.contains("EXPIRED1"))
        #expect(codes.sorted() == (0..<12).map { "CODE" + String(format: "%04d", $0) })
        for offer in coded {
            let code = offer["offerCode"]?.stringValue ?? ""
            #expect(offer["nonce"] == .null && offer["keyId"] == .null && offer["jwsV2"] == .null && offer["expiresAt"] == .null)
            let encoded = code.replacingOccurrences(of: " ", with: "%20").replacingOccurrences(of: "/", with: "%2F")
            #expect(offer["redemptionURL"] == .string("https://apps.apple.com/redeem?ctx=offercodes&id=1234567890&code=\(encoded)"))
        }
        #expect(coded.contains { $0["offerCode"] == .string("COME BACK/50") })
        // Every line has the manifest's columns, in order.
        #expect(offers.allSatisfy { $0.objectMembers?.map(\.key) == ReportSchema.offers.columns.map(\.name) })
        // Other offers carry the two keys as null.
        #expect(
            offers.filter { $0["offerType"] != .string("offer_code") }.allSatisfy {
                $0["offerCode"] == .null && $0["redemptionURL"] == .null
            })

        let summary = try Self.summary(first)
        let winback = try #require(summary["offersPerCampaign"]?["codes-winback"])
        let second = try #require(summary["offersPerCampaign"]?["codes-second"])
        #expect(winback["codesShort"] != .integer(0), "the pool is far smaller than the treatment group: \(winback)")
        #expect(second["codesLeft"] == .integer(0) && second["codesShort"] != .integer(0))
        #expect(summary["offersPerCampaign"]?["custom-code"]?["codesLeft"] == nil)
        // The cut keeps a prefix in account-key order, both variants: no holdout account after the last treated one.
        let eligible = try Gunzip.text(Array(try Data(contentsOf: URL(fileURLWithPath: first.publishedPath + "/eligible_accounts.csv.gz"))))
        let rows = eligible.split(separator: "\n").map { CSVFormat.fields(of: String($0)) }.filter { $0.first == "codes-winback" }
        let treated = pooled.filter { $0["campaignId"] == .string("codes-winback") }.compactMap { $0["accountKey"]?.stringValue }
        #expect(rows.count < 200 && rows.compactMap { $0[1] }.allSatisfy { $0 <= (treated.max() ?? "") })
        let page = try String(contentsOfFile: first.publishedPath + "/report.html", encoding: .utf8)
        #expect(page.contains("Codes left") && page.contains("codes-short"))

        // A re-run of the day into another folder re-emits the same codes; the ledger holds each code once.
        let again = try await RunJob.run(
            RunOptions(
                configPath: config.path, asOf: "2026-11-18",
                outputOverride: config.deletingLastPathComponent().appendingPathComponent("again").path, isQuiet: true))
        let reemitted = try Gunzip.text(Array(try Data(contentsOf: URL(fileURLWithPath: again.publishedPath + "/offers.ndjson.gz"))))
        let original = try Gunzip.text(Array(try Data(contentsOf: URL(fileURLWithPath: first.publishedPath + "/offers.ndjson.gz"))))
        #expect(reemitted == original)
        #expect(try Self.summary(again)["offersPerCampaign"] == summary["offersPerCampaign"])
        let ledger = config.deletingLastPathComponent().appendingPathComponent("state/ledger.sqlite").path
        let held = try await DatabaseQueue(path: ledger).read { db in
            try String.fetchAll(db, sql: "SELECT offer_code FROM selections WHERE offer_code IS NOT NULL")
        }
        #expect(held.count == 12 && Set(held).count == 12)

        // The next day: every code is held, so no account can be given one.
        let next = try await CampaignRunTests.run(config, asOf: "2026-11-19")
        let nextCodes = try CampaignRunTests.offers(config, asOf: "2026-11-19").filter {
            $0["offerType"] == .string("offer_code") && $0["campaignId"] != .string("custom-code")
        }
        let nextSummary = try Self.summary(next)
        #expect(nextCodes.isEmpty && nextSummary["offersPerCampaign"]?["codes-winback"]?["codesLeft"] == .integer(0))
    }

    @Test(arguments: [
        ("ref,Code\nref,\n", 64, "codes.csv:2: expected a code"),
        ("name,other\nx,y\n", 64, "codes.csv:1: expected a header with a 'code' column"),
        ("code,expirationDate\nA,31/12/2026\n", 64, "codes.csv:2: expected an expirationDate YYYY-MM-DD"), ("", 74, "codes.csv"),
    ])
    func aBadPoolFailsFastNamingTheFileAndLine(pool: String, code: Int32, words: String) async throws {
        let config = try Self.config("offer-codes-bad", codes: 1)
        let file = config.deletingLastPathComponent().appendingPathComponent("codes.csv")
        if pool.isEmpty {
            try FileManager.default.removeItem(at: file)
        } else {
            try pool.write(to: file, atomically: true, encoding: .utf8)
        }
        var error: JobError?
        do {
            _ = try await CampaignRunTests.run(config, asOf: "2026-11-18")
        } catch let thrown as JobError {
            error = thrown
        }
        #expect(error?.exitCode == code && error?.description.contains(words) == true, "\(String(describing: error))")
    }
}
