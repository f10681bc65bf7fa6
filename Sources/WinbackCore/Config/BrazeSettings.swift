import WinbackAppStore

/// The config's `delivery.braze` (docs/deliveries.md): Braze's `/users/track` REST endpoint, which `winback deliver`
/// sends each offer to as a custom event of the user whose external id is the offer's `appAccountToken`.
public struct BrazeSettings: Sendable, Equatable {
    /// `delivery.braze.restEndpoint`: the instance's REST endpoint, `https://rest.iad-01.braze.com` and the like.
    public var restEndpoint: String
    /// `delivery.braze.apiKeyFile`: a REST API key with `users.track`, relative to the config;
    /// `WINBACK_BRAZE_API_KEY_FILE` overrides it.
    public var apiKeyFile: String?
    /// `delivery.braze.timeoutSeconds`: seconds one request may take in all, 1…600 (default 30).
    public var timeoutSeconds = 30
    /// `delivery.braze.allowInsecureHTTP`: an `http://` endpoint off loopback is accepted; default `false`.
    public var allowsInsecureHTTP = false

    /// Settings for `restEndpoint`, the rest at their defaults.
    public init(restEndpoint: String) {
        self.restEndpoint = restEndpoint
    }

    /// Parses the `delivery.braze` object; every error names its key.
    static func parse(_ braze: ConfigObject) throws(ConfigError) -> BrazeSettings {
        try braze.allowOnly(["restEndpoint", "apiKeyFile", "timeoutSeconds", "allowInsecureHTTP"])
        var endpoint = try SinkURL.parse(try braze.string("restEndpoint"), key: "delivery.braze.restEndpoint")
        while endpoint.hasSuffix("/") { endpoint.removeLast() }
        var settings = BrazeSettings(restEndpoint: endpoint)
        settings.apiKeyFile = try braze.optionalString("apiKeyFile")
        settings.allowsInsecureHTTP = try braze.optionalBool("allowInsecureHTTP") ?? false
        try PlainHTTP.check(
            endpoint, key: "delivery.braze.restEndpoint", isAllowed: settings.allowsInsecureHTTP, optIn: "delivery.braze.allowInsecureHTTP")
        settings.timeoutSeconds = try SinkURL.timeout(braze, key: "delivery.braze.timeoutSeconds") ?? 30
        return settings
    }
}
