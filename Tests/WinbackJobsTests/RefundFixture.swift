import Foundation
import WinbackAppStore
import WinbackCrypto
import WinbackSampleData
import WinbackTestSupport

/// A crafted day of refund requests (docs/refunds.md) around `now`, signed by a TEST-ONLY PKI, in a config with an
/// `api` block for a ``MockAppStoreServer`` and these `refunds` policies:
///
/// | request | subscription | asked transaction | reason | age | decided by | sent |
/// |---|---|---|---|---|---|---|
/// | r1 | s1 (trial, then paid) | paid 12 days before | UNINTENDED_PURCHASE | 6 h | accidental-new: GRANT_FULL (sample: free trial) | yes |
/// | r2 | s2 (an earlier refund) | paid 10 days before | UNSATISFIED_WITH_PURCHASE | 4 h | repeat-refunders: DECLINE | yes |
/// | r3 | s3 | paid 19 days before | UNSATISFIED_WITH_PURCHASE | 16 h | late | no |
/// | r4 | s4 | paid 5 days before | LEGAL | 3 h | legal-quiet: NO_RESPONSE | no |
/// | r5 | s5 (token in overrides) | paid 8 days before | OTHER | 2 h | override: GRANT_FULL | yes |
/// | r6 | s6 | paid 2 days before | FULFILLMENT_ISSUE | 1 h | fulfillment: NONE | yes (no preference) |
///
/// After `now` (not seen by a job run at `now`): Apple refunds r1's transaction and declines r2.
struct RefundFixture {
    static let day: Int64 = 86_400_000
    static let hour: Int64 = 3_600_000
    static let product = "com.example.winback.monthly"
    /// The account token `overrides.csv` grants.
    static let overriddenToken = "5a5a5a5a-0000-4000-8000-000000000005"

    /// One expected answer.
    struct Expected {
        var uuid: String
        var transactionId: String
        var policyId: String?
        var preference: String
        var status: String
        var body: String?
    }

    let now: Int64
    let config: URL
    let expected: [Expected]

    /// The fixture's files in a new directory named `name`; `now` is epoch ms.
    static func make(_ name: String, now: Int64, server: MockAppStoreServer, policies: String? = nil) throws -> RefundFixture {
        let pki = try TestPKI.make(seed: 55)
        let signer = JWSSigner(key: pki.leaf.key)
        var lines: [String] = []
        func sign(_ members: [(String, JSONValue)]) throws -> String {
            try signer.sign(header: pki.jwsHeader, payload: JSONText.object(members))
        }
        func transaction(
            _ id: String, of original: String, purchased: Int64, token: String? = nil, price: Int64 = 9990, trial: Bool = false,
            revoked: Int64? = nil, signed: Int64? = nil
        ) throws -> String {
            var members: [(String, JSONValue)] = [
                ("transactionId", .string(id)), ("originalTransactionId", .string(original)),
                ("bundleId", .string(SampleDataGenerator.bundleId)),
                ("productId", .string(product)), ("subscriptionGroupIdentifier", .string("21440001")),
                ("purchaseDate", .integer(purchased)),
                ("originalPurchaseDate", .integer(purchased)), ("expiresDate", .integer(purchased + (trial ? 7 : 30) * day)),
                ("quantity", .integer(1)), ("type", .string("Auto-Renewable Subscription")), ("inAppOwnershipType", .string("PURCHASED")),
                ("signedDate", .integer(signed ?? purchased + 60_000)), ("environment", .string(SampleDataGenerator.environment)),
                ("storefront", .string("USA")), ("storefrontId", .string("143441")), ("transactionReason", .string("PURCHASE")),
                ("currency", .string("USD")), ("price", .integer(trial ? 0 : price)),
            ]
            if let token { members.append(("appAccountToken", .string(token))) }
            if trial {
                members += [("offerType", .integer(1)), ("offerDiscountType", .string("FREE_TRIAL")), ("offerPeriod", .string("P1W"))]
            }
            if let revoked { members += [("revocationDate", .integer(revoked)), ("revocationReason", .integer(0))] }
            return try sign(members)
        }
        func record(_ jws: String) { lines.append(JSONText.render(JSONText.object([("signedTransactionInfo", .string(jws))]))) }
        func notification(_ type: String, uuid: String, transaction jws: String, signed: Int64, reason: String? = nil) throws {
            var data: [(String, JSONValue)] = [
                ("bundleId", .string(SampleDataGenerator.bundleId)), ("appAppleId", .integer(SampleDataGenerator.appAppleId)),
                ("environment", .string(SampleDataGenerator.environment)), ("signedTransactionInfo", .string(jws)),
            ]
            if let reason { data.append(("consumptionRequestReason", .string(reason))) }
            let payload = try sign([
                ("notificationType", .string(type)), ("notificationUUID", .string(uuid)), ("data", JSONText.object(data)),
                ("version", .string("2.0")), ("signedDate", .integer(signed)),
            ])
            lines.append(JSONText.render(JSONText.object([("signedPayload", .string(payload))])))
        }

        // s1: a week's free trial, then paid; r1 asks about the latest paid month, 12 days in.
        let s1Paid = now - 12 * day
        record(
            try transaction(
                "3000000001", of: "3000000001", purchased: s1Paid - 37 * day, token: "1a1a1a1a-0000-4000-8000-000000000001", trial: true))
        record(try transaction("3000000002", of: "3000000001", purchased: s1Paid - 30 * day, token: "1a1a1a1a-0000-4000-8000-000000000001"))
        let r1Asked = try transaction("3000000003", of: "3000000001", purchased: s1Paid, token: "1a1a1a1a-0000-4000-8000-000000000001")
        record(r1Asked)
        try notification(
            "CONSUMPTION_REQUEST", uuid: "00000000-0000-4000-8000-0000000000a1", transaction: r1Asked, signed: now - 6 * hour,
            reason: "UNINTENDED_PURCHASE")
        // s2: refunded once before; r2 asks about the new month.
        record(try transaction("3000000101", of: "3000000101", purchased: now - 80 * day, revoked: now - 75 * day, signed: now - 75 * day))
        let r2Asked = try transaction("3000000102", of: "3000000101", purchased: now - 10 * day)
        record(r2Asked)
        try notification(
            "CONSUMPTION_REQUEST", uuid: "00000000-0000-4000-8000-0000000000b2", transaction: r2Asked, signed: now - 4 * hour,
            reason: "UNSATISFIED_WITH_PURCHASE")
        // s3: asked 16 hours ago: too late.
        let r3Asked = try transaction(
            "3000000201", of: "3000000201", purchased: now - 19 * day, token: "3c3c3c3c-0000-4000-8000-000000000003")
        record(r3Asked)
        try notification(
            "CONSUMPTION_REQUEST", uuid: "00000000-0000-4000-8000-0000000000c3", transaction: r3Asked, signed: now - 16 * hour,
            reason: "UNSATISFIED_WITH_PURCHASE")
        // s4: a legal request, left unanswered by policy.
        let r4Asked = try transaction("3000000301", of: "3000000301", purchased: now - 5 * day)
        record(r4Asked)
        try notification(
            "CONSUMPTION_REQUEST", uuid: "00000000-0000-4000-8000-0000000000d4", transaction: r4Asked, signed: now - 3 * hour,
            reason: "LEGAL")
        // s5: its account is in overrides.csv.
        let r5Asked = try transaction("3000000401", of: "3000000401", purchased: now - 8 * day, token: overriddenToken)
        record(r5Asked)
        try notification(
            "CONSUMPTION_REQUEST", uuid: "00000000-0000-4000-8000-0000000000e5", transaction: r5Asked, signed: now - 2 * hour,
            reason: "OTHER")
        // s6: consumption data without a preference.
        let r6Asked = try transaction("3000000501", of: "3000000501", purchased: now - 2 * day)
        record(r6Asked)
        try notification(
            "CONSUMPTION_REQUEST", uuid: "00000000-0000-4000-8000-0000000000f6", transaction: r6Asked, signed: now - 1 * hour,
            reason: "FULFILLMENT_ISSUE")
        // After now: Apple refunds r1's transaction and declines r2.
        let r1Refunded = try transaction(
            "3000000003", of: "3000000001", purchased: s1Paid, token: "1a1a1a1a-0000-4000-8000-000000000001", revoked: now + 13 * hour,
            signed: now + 13 * hour)
        try notification("REFUND", uuid: "00000000-0000-4000-8000-0000000001a1", transaction: r1Refunded, signed: now + 14 * hour)
        try notification("REFUND_DECLINED", uuid: "00000000-0000-4000-8000-0000000001b2", transaction: r2Asked, signed: now + 15 * hour)

        let directory = try CommandRunner.temporaryDirectory(name)
        try TestPKI.pem(pki.root).write(to: directory.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        let inputs = directory.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        try (lines.joined(separator: "\n") + "\n").write(
            to: inputs.appendingPathComponent("records.ndjson"), atomically: true, encoding: .utf8)
        try "key,preference\n\(overriddenToken.uppercased()),GRANT_FULL\n".write(
            to: directory.appendingPathComponent("overrides.csv"), atomically: true, encoding: .utf8)
        let defaultPolicies = """
            [{"id": "legal-quiet", "when": {"reasons": ["LEGAL"]}, "preference": "NO_RESPONSE"},
             {"id": "repeat-refunders", "when": {"minPriorRefunds": 1}, "preference": "DECLINE"},
             {"id": "accidental-new", "when": {"reasons": ["UNINTENDED_PURCHASE"], "maxDaysSincePurchase": 14}, "preference": "GRANT_FULL"},
             {"id": "fulfillment", "when": {"reasons": ["FULFILLMENT_ISSUE"]}, "preference": "NONE"},
             {"id": "default", "preference": "DECLINE"}]
            """
        let config = """
            {"app": {"bundleId": "\(SampleDataGenerator.bundleId)", "appAppleId": \(SampleDataGenerator.appAppleId), "environment": "\(SampleDataGenerator.environment)"},
             "inputs": ["in/*.ndjson"], "trust": {"rootCertificates": ["root.pem"]},
             "report": {"timeZone": "UTC", "gracePeriodDays": 16, "maxRejectRate": 0.5, "currency": "USD",
                        "exchangeRates": "\(Fixtures.packageRoot.appendingPathComponent("sample-data/exchange-rates.csv").path)"},
             "api": {"keyId": "\(SyncTests.keyId)", "issuerId": "\(SyncTests.issuerId)", "privateKeyFile": "\(SyncTests.keyPath)",
                     "directory": "sync", "baseURL": "\(server.baseURL)/"},
             "refunds": {"customerConsented": true, "sampleContentProvided": "free_trial", "overrides": "overrides.csv",
                         "policies": \(policies ?? defaultPolicies)},
             "ledger": "state/ledger.sqlite", "output": "out", "campaigns": []}
            """
        let url = directory.appendingPathComponent("config.json")
        try config.write(to: url, atomically: true, encoding: .utf8)
        func body(_ preference: String?, sample: Bool) -> String {
            #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":\#(sample)"#
                + (preference.map { #","refundPreference":"\#($0)"}"# } ?? "}")
        }
        let expected = [
            Expected(
                uuid: "00000000-0000-4000-8000-0000000000a1", transactionId: "3000000003", policyId: "accidental-new",
                preference: "GRANT_FULL", status: "sent", body: body("GRANT_FULL", sample: true)),
            Expected(
                uuid: "00000000-0000-4000-8000-0000000000b2", transactionId: "3000000102", policyId: "repeat-refunders",
                preference: "DECLINE", status: "sent", body: body("DECLINE", sample: false)),
            Expected(
                uuid: "00000000-0000-4000-8000-0000000000c3", transactionId: "3000000201", policyId: "default", preference: "DECLINE",
                status: "late", body: nil),
            Expected(
                uuid: "00000000-0000-4000-8000-0000000000d4", transactionId: "3000000301", policyId: "legal-quiet",
                preference: "NO_RESPONSE", status: "no_response", body: nil),
            Expected(
                uuid: "00000000-0000-4000-8000-0000000000e5", transactionId: "3000000401", policyId: "override", preference: "GRANT_FULL",
                status: "sent", body: body("GRANT_FULL", sample: false)),
            Expected(
                uuid: "00000000-0000-4000-8000-0000000000f6", transactionId: "3000000501", policyId: "fulfillment", preference: "NONE",
                status: "sent", body: body(nil, sample: false)),
        ]
        return RefundFixture(now: now, config: url, expected: expected)
    }
}
