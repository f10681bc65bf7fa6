import WinbackAppStore

/// The rule for `http://` URLs in the config: a peer on this machine (loopback: `localhost`, `127.0.0.0/8`,
/// `[::1]`) may be spoken to in clear text; any other host only when the config opts in by a named key, since
/// what travels there (a bearer token, offer codes, signatures) would be readable on the way.
public enum PlainHTTP {
    /// Whether `url` is `http://` to a host other than loopback.
    public static func isInsecure(_ url: String) -> Bool {
        guard url.lowercased().hasPrefix("http://") else { return false }
        var authority = url.dropFirst(7).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let host: Substring
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
        } else {
            host = authority.prefix { $0 != ":" }
        }
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "::1" { return false }
        let octets = lowered.split(separator: ".", omittingEmptySubsequences: false)
        if octets.count == 4, octets[0] == "127", octets.allSatisfy({ UInt8($0) != nil }) { return false }
        return true
    }

    /// Refuses an insecure `url` (``isInsecure(_:)``) at config `key` unless `isAllowed` (the key `optIn`).
    static func check(_ url: String, key: String, isAllowed: Bool, optIn: String) throws(ConfigError) {
        guard isInsecure(url), !isAllowed else { return }
        throw ConfigError(
            key: key,
            message: "expected https:// (or http:// to loopback), found '\(url)': plain HTTP to another host sends secrets in clear "
                + "text; set \(optIn): true to accept it")
    }
}
