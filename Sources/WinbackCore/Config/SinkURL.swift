import WinbackAppStore

/// What every delivery sink's settings check alike: its URL and its request timeout.
enum SinkURL {
    /// `url` when it is an `http://` or `https://` URL with a host and no space; else the error naming `key`.
    static func parse(_ url: String, key: String) throws(ConfigError) -> String {
        let rest = url.hasPrefix("https://") ? url.dropFirst(8) : url.hasPrefix("http://") ? url.dropFirst(7) : nil
        guard let rest, let host = rest.split(separator: "/").first, !host.isEmpty, !url.contains(" ") else {
            throw ConfigError(key: key, message: "expected an http:// or https:// URL, found '\(url)'")
        }
        return url
    }

    /// The `timeoutSeconds` of `object` (1…600), `nil` when absent.
    static func timeout(_ object: ConfigObject, key: String) throws(ConfigError) -> Int? {
        guard let seconds = try object.optionalInteger("timeoutSeconds") else { return nil }
        guard (1...600).contains(seconds) else {
            throw ConfigError(key: key, message: "expected an integer from 1 to 600, found \(seconds)")
        }
        return Int(seconds)
    }
}
