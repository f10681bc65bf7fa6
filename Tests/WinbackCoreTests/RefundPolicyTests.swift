import Foundation
import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackTestSupport

/// `refunds` (docs/refunds.md): the config read strictly (every bad key or value names it), policies tried in order
/// with every condition of `when`, overrides before policies, and the body Send Consumption Information gets.
@Suite struct RefundPolicyTests {
    static func config(_ refunds: String) throws(ConfigError) -> WinbackConfig {
        try ConfigTests.parse(ConfigTests.replacing(#""ledger":"#, with: #""refunds": \#(refunds), "ledger":"#))
    }

    /// A request with the given facts (a delivered transaction of product `monthly` in USA unless said).
    static func request(
        reason: String? = "UNSATISFIED_WITH_PURCHASE", product: String? = "monthly", storefront: String? = "USA", paidDays: Int64 = 40,
        daysSincePurchase: Int64? = 3, priorRefunds: Int64 = 0, token: String? = nil, original: String = "1000", trial: Bool = false
    ) -> RefundRequest {
        var request = RefundRequest(
            notificationUUID: "u", transactionId: "t", originalTransactionId: original, reason: reason, requestedAt: 1_800_000_000_000)
        request.productId = product
        request.storefront = storefront
        request.paidDays = paidDays
        request.daysSincePurchase = daysSincePurchase
        request.priorRefunds = priorRefunds
        request.appAccountToken = token
        request.isDelivered = product != nil
        request.hadFreeTrialBefore = trial
        return request
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var when: String
        var request: RefundRequest
        var matches: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "no conditions", when: "{}", request: request(), matches: true),
        Case(name: "reason listed", when: #"{"reasons": ["UNSATISFIED_WITH_PURCHASE", "OTHER"]}"#, request: request(), matches: true),
        Case(name: "reason not listed", when: #"{"reasons": ["LEGAL"]}"#, request: request(), matches: false),
        Case(name: "no reason, reasons asked", when: #"{"reasons": ["OTHER"]}"#, request: request(reason: nil), matches: false),
        Case(name: "no reason, none asked", when: #"{"minPaidDays": 1}"#, request: request(reason: nil), matches: true),
        Case(name: "product listed", when: #"{"productIds": ["monthly"]}"#, request: request(), matches: true),
        Case(name: "product not listed", when: #"{"productIds": ["annual"]}"#, request: request(), matches: false),
        Case(name: "transaction unknown", when: #"{"productIds": ["monthly"]}"#, request: request(product: nil), matches: false),
        Case(name: "storefront", when: #"{"storefronts": ["DEU"]}"#, request: request(), matches: false),
        Case(name: "minPaidDays equal", when: #"{"minPaidDays": 40}"#, request: request(), matches: true),
        Case(name: "minPaidDays above", when: #"{"minPaidDays": 41}"#, request: request(), matches: false),
        Case(name: "maxPaidDays equal", when: #"{"maxPaidDays": 40}"#, request: request(), matches: true),
        Case(name: "maxPaidDays below", when: #"{"maxPaidDays": 39}"#, request: request(), matches: false),
        Case(name: "maxDaysSincePurchase equal", when: #"{"maxDaysSincePurchase": 3}"#, request: request(), matches: true),
        Case(name: "maxDaysSincePurchase below", when: #"{"maxDaysSincePurchase": 2}"#, request: request(), matches: false),
        Case(
            name: "maxDaysSincePurchase, purchase unknown", when: #"{"maxDaysSincePurchase": 30}"#,
            request: request(daysSincePurchase: nil), matches: false),
        Case(name: "minPriorRefunds met", when: #"{"minPriorRefunds": 2}"#, request: request(priorRefunds: 2), matches: true),
        Case(name: "minPriorRefunds not met", when: #"{"minPriorRefunds": 2}"#, request: request(priorRefunds: 1), matches: false),
        Case(
            name: "every condition must hold",
            when: #"{"reasons": ["UNSATISFIED_WITH_PURCHASE"], "storefronts": ["USA"], "minPaidDays": 100}"#,
            request: request(), matches: false),
    ]

    @Test(arguments: cases)
    func aPolicyMatchesWhenEveryConditionHolds(_ test: Case) throws {
        let settings = try #require(
            try Self.config(#"{"customerConsented": true, "policies": [{"id": "p", "when": \#(test.when), "preference": "DECLINE"}]}"#)
                .refunds)
        let decision = settings.decide(test.request, overrides: RefundOverrides())
        #expect((decision.policyId == "p") == test.matches)
        #expect(decision.preference == (test.matches ? .decline : .noResponse))
    }

    @Test func theFirstMatchingPolicyDecidesAndAnOverrideBeatsThemAll() throws {
        let settings = try #require(
            try Self.config(
                #"""
                {"customerConsented": true, "sampleContentProvided": "free_trial", "policies": [
                  {"id": "serial", "when": {"minPriorRefunds": 1}, "preference": "DECLINE"},
                  {"id": "accident", "when": {"reasons": ["UNINTENDED_PURCHASE"], "maxDaysSincePurchase": 14}, "preference": "GRANT_PRORATED"},
                  {"id": "rest", "preference": "NONE"}]}
                """#
            ).refunds)
        let overrides = try RefundOverrides.parse(
            "key,preference\n1A1A1A1A-0000-4000-8000-000000000001,GRANT_FULL\n2000,NO_RESPONSE\n", file: "o.csv", key: "refunds.overrides")
        let accident = Self.request(reason: "UNINTENDED_PURCHASE", priorRefunds: 0, trial: true)
        #expect(
            settings.decide(accident, overrides: overrides)
                == RefundDecision(
                    policyId: "accident", preference: .grantProrated, deliveryStatus: "DELIVERED", sampleContentProvided: true))
        // The first match wins: a repeat refunder's accident is declined.
        #expect(settings.decide(Self.request(reason: "UNINTENDED_PURCHASE", priorRefunds: 3), overrides: overrides).policyId == "serial")
        #expect(settings.decide(Self.request(), overrides: overrides).preference == RefundPreference.none)
        // Overrides: by account token (any case), then by original transaction id.
        let byToken = settings.decide(
            Self.request(priorRefunds: 5, token: "1a1a1a1a-0000-4000-8000-000000000001"), overrides: overrides)
        #expect(byToken.policyId == "override" && byToken.preference == .grantFull)
        #expect(settings.decide(Self.request(original: "2000"), overrides: overrides).preference == .noResponse)
        // Without a transaction in the model: UNDELIVERED_OTHER.
        #expect(settings.decide(Self.request(product: nil), overrides: overrides).deliveryStatus == "UNDELIVERED_OTHER")
    }

    @Test func theBodyIsAppleV2ConsumptionRequestWithoutConsumptionPercentage() {
        let full = RefundDecision(policyId: "p", preference: .grantFull, deliveryStatus: "DELIVERED", sampleContentProvided: true)
        #expect(
            full.body
                == #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":true,"refundPreference":"GRANT_FULL"}"#)
        let none = RefundDecision(policyId: "p", preference: .none, deliveryStatus: "UNDELIVERED_OTHER", sampleContentProvided: false)
        #expect(none.body == #"{"customerConsented":true,"deliveryStatus":"UNDELIVERED_OTHER","sampleContentProvided":false}"#)
        for preference in RefundPreference.allCases {
            let body = RefundDecision(policyId: nil, preference: preference, deliveryStatus: "DELIVERED", sampleContentProvided: false).body
            #expect(!body.contains("consumptionPercentage"))
        }
    }

    struct BadConfig: Sendable, CustomTestStringConvertible {
        var refunds: String
        var key: String
        var testDescription: String { key + ": " + refunds }
    }

    static let badConfigs: [BadConfig] = [
        BadConfig(refunds: #"{"policies": []}"#, key: "refunds.customerConsented"),
        BadConfig(refunds: #"{"customerConsented": false, "policies": []}"#, key: "refunds.customerConsented"),
        BadConfig(refunds: #"{"customerConsented": "yes", "policies": []}"#, key: "refunds.customerConsented"),
        BadConfig(refunds: #"{"customerConsented": true}"#, key: "refunds.policies"),
        BadConfig(refunds: #"{"customerConsented": true, "policies": {}}"#, key: "refunds.policies"),
        BadConfig(refunds: #"{"customerConsented": true, "policies": [], "extra": 1}"#, key: "refunds.extra"),
        BadConfig(
            refunds: #"{"customerConsented": true, "policies": [], "sampleContentProvided": "trial"}"#, key: "refunds.sampleContentProvided"
        ),
        BadConfig(
            refunds: #"{"customerConsented": true, "policies": [{"id": "a", "preference": "REFUND"}]}"#,
            key: "refunds.policies[0].preference"),
        BadConfig(refunds: #"{"customerConsented": true, "policies": [{"preference": "DECLINE"}]}"#, key: "refunds.policies[0].id"),
        BadConfig(
            refunds: #"{"customerConsented": true, "policies": [{"id": "a", "preference": "DECLINE"}, {"id": "a", "preference": "NONE"}]}"#,
            key: "refunds.policies[1].id"),
        BadConfig(
            refunds: #"{"customerConsented": true, "policies": [{"id": "a", "when": {"reason": ["OTHER"]}, "preference": "NONE"}]}"#,
            key: "refunds.policies[0].when.reason"),
        BadConfig(
            refunds:
                #"{"customerConsented": true, "policies": [{"id": "a", "when": {"reasons": ["OTHER", "BORED"]}, "preference": "NONE"}]}"#,
            key: "refunds.policies[0].when.reasons[1]"),
        BadConfig(
            refunds: #"{"customerConsented": true, "policies": [{"id": "a", "when": {"minPaidDays": -1}, "preference": "NONE"}]}"#,
            key: "refunds.policies[0].when.minPaidDays"),
        BadConfig(
            refunds:
                #"{"customerConsented": true, "policies": [{"id": "a", "when": {"maxDaysSincePurchase": 1.5}, "preference": "NONE"}]}"#,
            key: "refunds.policies[0].when.maxDaysSincePurchase"),
        BadConfig(
            refunds:
                #"{"customerConsented": true, "policies": [{"id": "a", "when": {"minPaidDays": 9, "maxPaidDays": 3}, "preference": "NONE"}]}"#,
            key: "refunds.policies[0].when.maxPaidDays"),
        BadConfig(refunds: #"{"customerConsented": true, "policies": [], "overrides": 3}"#, key: "refunds.overrides"),
    ]

    @Test(arguments: badConfigs)
    func aBadRefundsBlockIsRefusedNamingTheKey(_ bad: BadConfig) {
        do {
            _ = try Self.config(bad.refunds)
            Issue.record("accepted \(bad.refunds)")
        } catch {
            #expect(error.key == bad.key, "\(error.key): \(error.message)")
        }
    }

    @Test(arguments: [
        ("key,pref\nx,DECLINE\n", "o.csv:1"), ("key,preference\nx\n", "o.csv:2"), ("key,preference\nx,DECLINE\n,NONE\n", "o.csv:3"),
        ("key,preference\nx,MAYBE\n", "o.csv:2"), ("key,preference\nx,DECLINE\nx,NONE\n", "o.csv:3"),
    ])
    func aBadOverridesFileIsRefusedNamingItsLine(_ text: String, _ place: String) {
        do {
            _ = try RefundOverrides.parse(text, file: "o.csv", key: "refunds.overrides")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.key == "refunds.overrides" && error.message.hasPrefix(place + ":"), "\(error.message)")
        }
    }

    /// The shipped configs' `refunds` blocks are valid (jobs/sample.json, jobs/production.example.json).
    @Test(arguments: ["jobs/sample.json", "jobs/production.example.json"])
    func theShippedConfigsRefundsBlocksParse(_ path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Fixtures.packageRoot.appendingPathComponent(path)))
        let refunds = try #require(try WinbackConfig.parse(bytes).refunds)
        #expect(refunds.policies.count >= 3 && refunds.policies.last?.conditions == RefundPolicy.Conditions())
    }
}
