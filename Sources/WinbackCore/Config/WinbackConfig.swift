import Foundation
import WinbackAnalytics
import WinbackAppStore

/// The run configuration (README: Configuration). Paths are as written, relative to the config file's directory.
public struct WinbackConfig: Sendable, Equatable {
    /// The app every payload must belong to.
    public var app: AppIdentity
    /// Glob patterns, relative to the config file's directory.
    public var inputs: [String]
    /// DER or PEM root certificate files (a PEM may hold several, all trusted).
    public var rootCertificates: [String]
    /// Accept decoded payload objects (verified upstream) instead of rejecting them as `unsigned_payload`.
    public var acceptUnsignedPayloads: Bool
    /// Time zone, grace period, reject-rate and data-lag thresholds.
    public var report: ReportSettings
    /// The In-App Purchase key offers are signed with; `nil` when no campaign signs.
    public var signing: SigningSettings?
    /// The App Store Server API key and directory of `winback sync`; `nil` when the config does not sync.
    public var api: APISettings? = nil
    /// `delivery` (docs/campaigns.md): the webhook `winback deliver` sends offers to; `nil` when absent.
    public var delivery: DeliverySettings? = nil
    /// `retentionMessaging` (docs/retention-messaging.md): `winback serve`'s default message; `nil` when absent.
    public var retentionMessaging: RetentionMessagingSettings? = nil
    /// `refunds` (docs/refunds.md): how `winback refunds` answers refund requests; `nil` when absent (nothing is sent).
    public var refunds: RefundSettings? = nil
    /// The SQLite offer ledger.
    public var ledger: String
    /// The verified store's directory (docs/verified-store.md); `nil`: `verified/` beside the ledger.
    public var store: String? = nil
    /// The output directory; reports go to `<output>/dt=<D>/`.
    public var output: String
    /// Campaign objects (their keys are checked here; their rules are applied by the campaign stage).
    public var campaigns: [JSONValue]

    /// Parses and validates config JSON. Unknown keys are an error at every level.
    public static func parse(_ bytes: [UInt8]) throws(ConfigError) -> WinbackConfig {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw ConfigError(key: "(file)", message: "expected a JSON object, found invalid JSON: \(error)")
        }
        let reader = try ConfigObject(root, key: "")
        try reader.allowOnly([
            "app", "inputs", "trust", "report", "signing", "api", "delivery", "retentionMessaging", "refunds", "ledger", "store", "output",
            "campaigns",
        ])

        let app = try ConfigObject(try reader.required("app"), key: "app")
        try app.allowOnly(["bundleId", "appAppleId", "environment"])
        let bundleId = try app.string("bundleId")
        let environment = try app.string("environment")
        guard environment == "Production" || environment == "Sandbox" else {
            throw ConfigError(key: "app.environment", message: "expected 'Production' or 'Sandbox', found '\(environment)'")
        }
        let appAppleId = try app.optionalInteger("appAppleId")
        if let appAppleId, appAppleId <= 0 {
            throw ConfigError(key: "app.appAppleId", message: "expected the app's positive Apple ID, found \(appAppleId)")
        }
        if environment == "Production", appAppleId == nil {
            throw ConfigError(key: "app.appAppleId", message: "expected an integer (required for Production), found none")
        }

        let inputs = try reader.stringArray("inputs")
        guard !inputs.isEmpty else { throw ConfigError(key: "inputs", message: "expected at least one glob pattern, found []") }

        let trust = try ConfigObject(try reader.required("trust"), key: "trust")
        try trust.allowOnly(["rootCertificates", "acceptUnsignedPayloads"])
        let roots = try trust.stringArray("rootCertificates")
        guard !roots.isEmpty else {
            throw ConfigError(key: "trust.rootCertificates", message: "expected at least one certificate file, found []")
        }
        let acceptUnsigned = try trust.optionalBool("acceptUnsignedPayloads") ?? false

        let report = try ConfigObject(try reader.required("report"), key: "report")
        try report.allowOnly([
            "timeZone", "gracePeriodDays", "maxRejectRate", "maxDataLagDays", "maxLineBytes", "currency", "exchangeRates", "commission",
            "taxRates", "formats",
        ])
        let timeZone = try report.string("timeZone")
        guard TimeZone(identifier: timeZone) != nil else {
            throw ConfigError(
                key: "report.timeZone", message: "expected an IANA time zone (e.g. 'UTC', 'America/Los_Angeles'), found '\(timeZone)'")
        }
        let grace = try report.integer("gracePeriodDays")
        guard [0, 3, 16, 28].contains(grace) else {
            throw ConfigError(key: "report.gracePeriodDays", message: "expected one of 0, 3, 16, 28, found \(grace)")
        }
        let maxRejectRate = try report.number("maxRejectRate")
        guard (0...1).contains(maxRejectRate) else {
            throw ConfigError(key: "report.maxRejectRate", message: "expected a number from 0 to 1, found \(maxRejectRate)")
        }
        let maxDataLagDays = try report.optionalInteger("maxDataLagDays") ?? 2
        guard (0...3650).contains(maxDataLagDays) else {
            throw ConfigError(key: "report.maxDataLagDays", message: "expected an integer from 0 to 3650, found \(maxDataLagDays)")
        }
        let maxLineBytes = try report.optionalInteger("maxLineBytes") ?? 16 << 20
        guard (1024...(1 << 30)).contains(maxLineBytes) else {
            throw ConfigError(key: "report.maxLineBytes", message: "expected an integer from 1024 to 1073741824, found \(maxLineBytes)")
        }
        let money = try MoneySettings.parse(report)
        var formats: Set<ReportSettings.TableFormat> = [.csv]
        if report.optional("formats") != nil {
            let names = try report.stringArray("formats")
            let parsed = names.compactMap(ReportSettings.TableFormat.init(rawValue:))
            guard !names.isEmpty, parsed.count == names.count, Set(parsed).count == parsed.count else {
                throw ConfigError(
                    key: "report.formats",
                    message:
                        "expected a non-empty list of distinct 'csv' and 'parquet', found \(names.map { "'\($0)'" }.joined(separator: ", "))"
                )
            }
            formats = Set(parsed)
        }

        var signing: SigningSettings? = nil
        if let signingValue = reader.optional("signing") {
            let object = try ConfigObject(signingValue, key: "signing")
            try object.allowOnly(["keyId", "issuerId", "privateKeyFile"])
            signing = SigningSettings(
                keyId: try object.string("keyId"), issuerId: try object.string("issuerId"),
                privateKeyFile: try object.optionalString("privateKeyFile"))
        }

        let api = try reader.optional("api").map { value throws(ConfigError) in try APISettings.parse(ConfigObject(value, key: "api")) }
        let delivery = try reader.optional("delivery").map { value throws(ConfigError) in
            try DeliverySettings.parse(ConfigObject(value, key: "delivery"))
        }
        let retentionMessaging = try reader.optional("retentionMessaging").map { value throws(ConfigError) in
            try RetentionMessagingSettings.parse(ConfigObject(value, key: "retentionMessaging"))
        }
        let refunds = try reader.optional("refunds").map { value throws(ConfigError) in
            try RefundSettings.parse(ConfigObject(value, key: "refunds"))
        }
        let ledger = try reader.string("ledger")
        let store = try reader.optionalString("store")
        let output = try reader.string("output")
        guard case .array(let campaignElements) = try reader.required("campaigns") else {
            throw ConfigError(
                key: "campaigns",
                message: "expected an array (may be empty), found \(FieldValue.describe(reader.optional("campaigns") ?? .null))")
        }
        var campaigns: [JSONValue] = []
        for (index, element) in campaignElements.enumerated() {
            try CampaignKeys.check(element.value, key: "campaigns[\(index)]")
            campaigns.append(element.value)
        }
        var config = WinbackConfig(
            app: AppIdentity(bundleId: bundleId, appAppleId: appAppleId, environment: environment),
            inputs: inputs, rootCertificates: roots, acceptUnsignedPayloads: acceptUnsigned,
            report: {
                var settings = ReportSettings(
                    timeZone: timeZone, gracePeriodDays: Int(grace), maxRejectRate: maxRejectRate, maxDataLagDays: Int(maxDataLagDays),
                    maxLineBytes: Int(maxLineBytes), money: money)
                settings.formats = formats
                return settings
            }(),
            signing: signing, api: api, ledger: ledger, store: store, output: output, campaigns: campaigns)
        config.delivery = delivery
        config.retentionMessaging = retentionMessaging
        config.refunds = refunds
        return config
    }
}
