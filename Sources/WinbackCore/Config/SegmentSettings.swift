import WinbackAppStore

/// The config's `delivery.segment` (docs/deliveries.md): Segment's HTTP Tracking API batch endpoint (also spoken by
/// RudderStack and Jitsu), which `winback deliver` sends each offer to as a Track call.
public struct SegmentSettings: Sendable, Equatable {
    /// Segment's own batch endpoint.
    public static let defaultURL = "https://api.segment.io/v1/batch"

    /// `delivery.segment.url`: the batch endpoint (default ``defaultURL``; a RudderStack or Jitsu data plane's
    /// `/v1/batch`).
    public var url = SegmentSettings.defaultURL
    /// `delivery.segment.writeKeyFile`: the source's write key, relative to the config;
    /// `WINBACK_SEGMENT_WRITE_KEY_FILE` overrides it.
    public var writeKeyFile: String?
    /// `delivery.segment.timeoutSeconds`: seconds one request may take in all, 1…600 (default 30).
    public var timeoutSeconds = 30
    /// `delivery.segment.allowInsecureHTTP`: an `http://` URL off loopback is accepted; default `false`.
    public var allowsInsecureHTTP = false

    /// Default settings.
    public init() {}

    /// Parses the `delivery.segment` object; every error names its key.
    static func parse(_ segment: ConfigObject) throws(ConfigError) -> SegmentSettings {
        try segment.allowOnly(["url", "writeKeyFile", "timeoutSeconds", "allowInsecureHTTP"])
        var settings = SegmentSettings()
        if let url = try segment.optionalString("url") { settings.url = try SinkURL.parse(url, key: "delivery.segment.url") }
        settings.writeKeyFile = try segment.optionalString("writeKeyFile")
        settings.allowsInsecureHTTP = try segment.optionalBool("allowInsecureHTTP") ?? false
        try PlainHTTP.check(
            settings.url, key: "delivery.segment.url", isAllowed: settings.allowsInsecureHTTP, optIn: "delivery.segment.allowInsecureHTTP")
        settings.timeoutSeconds = try SinkURL.timeout(segment, key: "delivery.segment.timeoutSeconds") ?? 30
        return settings
    }
}
