import WinbackAppStore

/// `api` in the config (docs/sync.md): the App Store Server API key `winback sync` authenticates with and the
/// directory it writes notification files to.
public struct APISettings: Sendable, Equatable {
    /// The key's 10-character id (`kid` of the token).
    public var keyId: String
    /// The issuer id (App Store Connect → Users and Access → Integrations; `iss` of the token).
    public var issuerId: String
    /// Path of the PKCS#8 `.p8` file, relative to the config; `WINBACK_API_KEY_FILE` overrides it.
    public var privateKeyFile: String?
    /// Where `notifications/<YYYY-MM-DD>.ndjson.gz` files go, relative to the config.
    public var directory: String
    /// The API's base URL without a trailing `/`; `nil`: Apple's, by `app.environment` (``defaultBaseURL(environment:)``).
    public var baseURL: String?
    /// The most requests a second any `winback sync` mode sends to Apple, retries included (1…50; Apple
    /// allows 50 per app; default 40).
    public var requestsPerSecond: Int64 = 40
    /// The most pages one day of notification history, or one id's transaction history, may take before the
    /// sync stops with 76 naming this key (`api.maxPages`, 1…1 000 000; default 10 000: 200 000 notifications a
    /// day at Apple's 20 a page). With ``requestsPerSecond`` it bounds how long and how much a server that
    /// always has "more" can make a sync work.
    public var maxPages: Int64 = 10_000
    /// `api.allowInsecureHTTP`: an `http://` ``baseURL`` to a host other than loopback is accepted (the bearer
    /// token then travels in clear text); default `false`.
    public var allowsInsecureHTTP = false

    /// Settings from the config's `api` object.
    public init(keyId: String, issuerId: String, privateKeyFile: String?, directory: String, baseURL: String?) {
        self.keyId = keyId
        self.issuerId = issuerId
        self.privateKeyFile = privateKeyFile
        self.directory = directory
        self.baseURL = baseURL
    }

    /// Apple's production or sandbox endpoint for `app.environment`: the hosts Apple recommends since 2026-05
    /// (docs/campaigns.md; the older `api.storekit.itunes.apple.com` hosts still answer, set `api.baseURL` to keep them).
    public static func defaultBaseURL(environment: String) -> String {
        environment == "Sandbox" ? "https://api.storekit-sandbox.apple.com" : "https://api.storekit.apple.com"
    }

    /// Parses the `api` object: unknown keys, missing ids or a `baseURL` that is not `http(s)://host…` fail naming the key.
    static func parse(_ object: ConfigObject) throws(ConfigError) -> APISettings {
        try object.allowOnly([
            "keyId", "issuerId", "privateKeyFile", "directory", "baseURL", "requestsPerSecond", "maxPages", "allowInsecureHTTP",
        ])
        let keyId = try object.string("keyId")
        let issuerId = try object.string("issuerId")
        let directory = try object.string("directory")
        var baseURL = try object.optionalString("baseURL")
        if let url = baseURL {
            let rest = url.hasPrefix("https://") ? url.dropFirst(8) : url.hasPrefix("http://") ? url.dropFirst(7) : nil
            guard let rest, let host = rest.split(separator: "/").first, !host.isEmpty, !url.contains("?"), !url.contains(" ") else {
                throw ConfigError(
                    key: "api.baseURL",
                    message: "expected an http:// or https:// URL such as 'https://api.storekit.apple.com', found '\(url)'")
            }
            while baseURL?.hasSuffix("/") == true { baseURL?.removeLast() }
        }
        var settings = APISettings(
            keyId: keyId, issuerId: issuerId, privateKeyFile: try object.optionalString("privateKeyFile"), directory: directory,
            baseURL: baseURL)
        if let rate = try object.optionalInteger("requestsPerSecond") {
            guard (1...50).contains(rate) else {
                throw ConfigError(
                    key: "api.requestsPerSecond",
                    message: "expected requests a second from 1 to 50 (Apple allows 50 per app), found \(rate)")
            }
            settings.requestsPerSecond = rate
        }
        if let pages = try object.optionalInteger("maxPages") {
            guard (1...1_000_000).contains(pages) else {
                throw ConfigError(key: "api.maxPages", message: "expected pages from 1 to 1000000, found \(pages)")
            }
            settings.maxPages = pages
        }
        settings.allowsInsecureHTTP = try object.optionalBool("allowInsecureHTTP") ?? false
        if let url = baseURL {
            try PlainHTTP.check(url, key: "api.baseURL", isAllowed: settings.allowsInsecureHTTP, optIn: "api.allowInsecureHTTP")
        }
        return settings
    }
}
