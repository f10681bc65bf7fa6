import WinbackAppStore

/// The config's `delivery.webhook` (docs/deliveries.md): the URL `winback deliver` POSTs signed batches to.
public struct WebhookSettings: Sendable, Equatable {
    /// `delivery.webhook.url`: an `http://` or `https://` URL that takes the POSTed batches.
    public var url: String
    /// `delivery.webhook.secretFile`: the HMAC secret's file, relative to the config;
    /// `WINBACK_WEBHOOK_SECRET_FILE` overrides it.
    public var secretFile: String?
    /// `delivery.webhook.batchSize`: offer lines per request, 1…10 000 (default 500).
    public var batchSize = 500
    /// `delivery.webhook.timeoutSeconds`: seconds one request may take in all, 1…600 (default 30).
    public var timeoutSeconds = 30
    /// `delivery.webhook.allowInsecureHTTP`: an `http://` URL to a host other than loopback is accepted (offer
    /// codes and signatures then travel in clear text); default `false`.
    public var allowsInsecureHTTP = false

    /// Settings with `url` and `secretFile`, the rest at their defaults.
    public init(url: String, secretFile: String?) {
        self.url = url
        self.secretFile = secretFile
    }

    /// Parses the `delivery.webhook` object; every error names its key.
    static func parse(_ webhook: ConfigObject) throws(ConfigError) -> WebhookSettings {
        try webhook.allowOnly(["url", "secretFile", "batchSize", "timeoutSeconds", "allowInsecureHTTP"])
        let url = try SinkURL.parse(try webhook.string("url"), key: "delivery.webhook.url")
        var settings = WebhookSettings(url: url, secretFile: try webhook.optionalString("secretFile"))
        settings.allowsInsecureHTTP = try webhook.optionalBool("allowInsecureHTTP") ?? false
        try PlainHTTP.check(
            url, key: "delivery.webhook.url", isAllowed: settings.allowsInsecureHTTP, optIn: "delivery.webhook.allowInsecureHTTP")
        if let size = try webhook.optionalInteger("batchSize") {
            guard (1...10_000).contains(size) else {
                throw ConfigError(key: "delivery.webhook.batchSize", message: "expected an integer from 1 to 10000, found \(size)")
            }
            settings.batchSize = Int(size)
        }
        settings.timeoutSeconds = try SinkURL.timeout(webhook, key: "delivery.webhook.timeoutSeconds") ?? 30
        return settings
    }
}
