/// The config's `delivery` block (docs/deliveries.md): where `winback deliver` sends the day's offers.
public struct DeliverySettings: Sendable, Equatable {
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

    /// Parses the `delivery` object; every error names its key.
    static func parse(_ object: ConfigObject) throws(ConfigError) -> DeliverySettings {
        try object.allowOnly(["webhook"])
        let webhook = try ConfigObject(try object.required("webhook"), key: "delivery.webhook")
        try webhook.allowOnly(["url", "secretFile", "batchSize", "timeoutSeconds", "allowInsecureHTTP"])
        let url = try webhook.string("url")
        let rest = url.hasPrefix("https://") ? url.dropFirst(8) : url.hasPrefix("http://") ? url.dropFirst(7) : nil
        guard let rest, let host = rest.split(separator: "/").first, !host.isEmpty, !url.contains(" ") else {
            throw ConfigError(key: "delivery.webhook.url", message: "expected an http:// or https:// URL, found '\(url)'")
        }
        var settings = DeliverySettings(url: url, secretFile: try webhook.optionalString("secretFile"))
        settings.allowsInsecureHTTP = try webhook.optionalBool("allowInsecureHTTP") ?? false
        try PlainHTTP.check(
            url, key: "delivery.webhook.url", isAllowed: settings.allowsInsecureHTTP, optIn: "delivery.webhook.allowInsecureHTTP")
        if let size = try webhook.optionalInteger("batchSize") {
            guard (1...10_000).contains(size) else {
                throw ConfigError(key: "delivery.webhook.batchSize", message: "expected an integer from 1 to 10000, found \(size)")
            }
            settings.batchSize = Int(size)
        }
        if let seconds = try webhook.optionalInteger("timeoutSeconds") {
            guard (1...600).contains(seconds) else {
                throw ConfigError(key: "delivery.webhook.timeoutSeconds", message: "expected an integer from 1 to 600, found \(seconds)")
            }
            settings.timeoutSeconds = Int(seconds)
        }
        return settings
    }
}
