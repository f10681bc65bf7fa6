import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackCore

@Suite struct ConfigTests {
    static let valid = """
        {"app": {"bundleId": "com.example.app", "appAppleId": 1234567890, "environment": "Production"},
         "inputs": ["exports/*.ndjson.gz"],
         "trust": {"rootCertificates": ["certs/root.cer"]},
         "report": {"timeZone": "America/Los_Angeles", "gracePeriodDays": 16, "maxRejectRate": 0.01},
         "ledger": "state/ledger.sqlite", "output": "out", "campaigns": []}
        """

    static func parse(_ text: String) throws(ConfigError) -> WinbackConfig {
        try WinbackConfig.parse(Array(text.utf8))
    }

    static func replacing(_ old: String, with new: String) -> String {
        valid.replacingOccurrences(of: old, with: new)
    }

    @Test func validConfigParses() throws {
        let config = try Self.parse(Self.valid)
        #expect(config.app == AppIdentity(bundleId: "com.example.app", appAppleId: 1_234_567_890, environment: "Production"))
        #expect(config.report.gracePeriodDays == 16)
        #expect(config.acceptUnsignedPayloads == false)
        #expect(config.signing == nil)
        #expect(config.report.maxDataLagDays == 2)
        #expect(
            try Self.parse(Self.replacing("\"maxRejectRate\": 0.01", with: "\"maxRejectRate\": 0.01, \"maxDataLagDays\": 0")).report
                .maxDataLagDays == 0)
    }

    struct BadConfig: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var key: String
        var message: String
        var testDescription: String { name }
    }

    static let badConfigs: [BadConfig] = [
        BadConfig(
            name: "unknown top-level key", text: replacing("\"output\": \"out\"", with: "\"output\": \"out\", \"outptu\": 1"),
            key: "outptu",
            message:
                "unknown key (allowed here: api, app, campaigns, delivery, inputs, ledger, output, refunds, report, retentionMessaging, signing, store, trust)"
        ),
        BadConfig(
            name: "default message not a UUID",
            text: replacing(
                "\"output\": \"out\"", with: "\"output\": \"out\", \"retentionMessaging\": { \"defaultMessageIdentifier\": \"hello\" }"),
            key: "retentionMessaging.defaultMessageIdentifier", message: "expected the UUID of an approved retention message, found 'hello'"
        ),
        BadConfig(
            name: "unknown retentionMessaging key",
            text: replacing("\"output\": \"out\"", with: "\"output\": \"out\", \"retentionMessaging\": { \"default\": 1 }"),
            key: "retentionMessaging.default", message: "unknown key (allowed here: defaultMessageIdentifier)"),
        BadConfig(
            name: "unknown nested key", text: replacing("\"gracePeriodDays\"", with: "\"graceDays\": 1, \"gracePeriodDays\""),
            key: "report.graceDays",
            message:
                "unknown key (allowed here: commission, currency, exchangeRates, formats, gracePeriodDays, maxDataLagDays, maxLineBytes, maxRejectRate, taxRates, timeZone)"
        ),
        BadConfig(
            name: "bad grace period", text: replacing("\"gracePeriodDays\": 16", with: "\"gracePeriodDays\": 5"),
            key: "report.gracePeriodDays", message: "expected one of 0, 3, 16, 28, found 5"),
        BadConfig(
            name: "bad environment", text: replacing("\"Production\"", with: "\"Prod\""),
            key: "app.environment", message: "expected 'Production' or 'Sandbox', found 'Prod'"),
        BadConfig(
            name: "production without appAppleId", text: replacing("\"appAppleId\": 1234567890, ", with: ""),
            key: "app.appAppleId", message: "expected an integer (required for Production), found none"),
        BadConfig(
            name: "bad time zone", text: replacing("America/Los_Angeles", with: "Mars/Olympus"),
            key: "report.timeZone", message: "expected an IANA time zone (e.g. 'UTC', 'America/Los_Angeles'), found 'Mars/Olympus'"),
        BadConfig(
            name: "reject rate above 1", text: replacing("\"maxRejectRate\": 0.01", with: "\"maxRejectRate\": 2"),
            key: "report.maxRejectRate", message: "expected a number from 0 to 1, found 2.0"),
        BadConfig(
            name: "negative data lag", text: replacing("\"maxRejectRate\": 0.01", with: "\"maxRejectRate\": 0.01, \"maxDataLagDays\": -1"),
            key: "report.maxDataLagDays", message: "expected an integer from 0 to 3650, found -1"),
        BadConfig(
            name: "fractional data lag",
            text: replacing("\"maxRejectRate\": 0.01", with: "\"maxRejectRate\": 0.01, \"maxDataLagDays\": 1.5"),
            key: "report.maxDataLagDays", message: "expected an integer, found 1.5 (number)"),
        BadConfig(
            name: "lower-case reporting currency",
            text: replacing(
                "\"maxRejectRate\": 0.01", with: "\"maxRejectRate\": 0.01, \"currency\": \"usd\", \"exchangeRates\": \"r.csv\""),
            key: "report.currency", message: "expected an ISO 4217 code of three upper-case letters, found 'usd'"),
        BadConfig(
            name: "reporting currency without rates",
            text: replacing("\"maxRejectRate\": 0.01", with: "\"maxRejectRate\": 0.01, \"currency\": \"USD\""),
            key: "report.exchangeRates", message: "required when report.currency is set (a CSV file 'date,currency,rate')"),
        BadConfig(
            name: "rates without a reporting currency",
            text: replacing("\"maxRejectRate\": 0.01", with: "\"maxRejectRate\": 0.01, \"exchangeRates\": \"r.csv\""),
            key: "report.exchangeRates", message: "has no effect without report.currency: set the reporting currency"),
        BadConfig(
            name: "unknown commission key",
            text: replacing("\"maxRejectRate\": 0.01", with: "\"maxRejectRate\": 0.01, \"commission\": {\"rate\": 0.15, \"reduced\": 0.1}"),
            key: "report.commission.reduced", message: "unknown key (allowed here: rate, reducedAfterServiceDays, reducedRate)"),
        BadConfig(
            name: "commission of 100 %",
            text: replacing("\"maxRejectRate\": 0.01", with: "\"maxRejectRate\": 0.01, \"commission\": {\"rate\": 1}"),
            key: "report.commission.rate", message: "expected a number from 0 up to (not including) 1 with at most 9 decimals, found 1.0"),
        BadConfig(
            name: "negative service days",
            text: replacing("\"maxRejectRate\": 0.01", with: "\"maxRejectRate\": 0.01, \"commission\": {\"reducedAfterServiceDays\": -1}"),
            key: "report.commission.reducedAfterServiceDays", message: "expected an integer from 0 to 36500, found -1"),
        BadConfig(
            name: "tax rate of a country name",
            text: replacing("\"maxRejectRate\": 0.01", with: "\"maxRejectRate\": 0.01, \"taxRates\": {\"Germany\": 0.19}"),
            key: "report.taxRates.Germany", message: "expected Apple's three-letter storefront code (e.g. 'DEU') as the key"),
        BadConfig(
            name: "tax rate as text",
            text: replacing("\"maxRejectRate\": 0.01", with: "\"maxRejectRate\": 0.01, \"taxRates\": {\"DEU\": \"19%\"}"),
            key: "report.taxRates.DEU", message: "expected a number, found '19%' (string)"),
        BadConfig(
            name: "empty inputs", text: replacing("[\"exports/*.ndjson.gz\"]", with: "[]"),
            key: "inputs", message: "expected at least one glob pattern, found []"),
        BadConfig(
            name: "missing ledger", text: replacing("\"ledger\": \"state/ledger.sqlite\", ", with: ""),
            key: "ledger", message: "required key is missing"),
        BadConfig(
            name: "unknown campaign key",
            text: replacing("\"campaigns\": []", with: "\"campaigns\": [{\"id\": \"wb\", \"audiense\": \"win_back\"}]"),
            key: "campaigns[0] ('wb').audiense",
            message:
                "unknown key (allowed here: allowIntroductoryOffer, audience, channel, cooldownDays, holdoutPercent, id, maxOffers, messageIdentifier, offer, plannedAccounts, rules, signatures)"
        ),
        BadConfig(
            name: "unknown rule key",
            text: replacing("\"campaigns\": []", with: "\"campaigns\": [{\"id\": \"wb\", \"rules\": {\"minPaidDay\": 3}}]"),
            key: "campaigns[0] ('wb').rules.minPaidDay",
            message:
                "unknown key (allowed here: lapseReasons, maxDaysSinceAutoRenewDisabled, maxDaysSinceLapse, maxDaysToExpiry, maxRenewalProbability, minDaysSinceLapse, minExpectedProceeds12m, minPaidDays, productIds, requireAppleEligibility, storefronts)"
        ),
        BadConfig(
            name: "not JSON", text: "{", key: "(file)",
            message: "expected a JSON object, found invalid JSON: expected a member name at byte 1"),
    ]

    @Test(arguments: badConfigs)
    func invalidConfigNamesTheKey(_ bad: BadConfig) {
        #expect(throws: ConfigError(key: bad.key, message: bad.message)) { try Self.parse(bad.text) }
    }
}
