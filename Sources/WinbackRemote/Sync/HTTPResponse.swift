/// An HTTP response as `winback sync` reads it.
struct HTTPResponse: Sendable {
    /// The status code.
    var status: Int
    /// Header fields, names lower-cased.
    var headers: [String: String]
    /// The whole body.
    var body: [UInt8]

    /// The first `limit` characters of the body on one line, control characters escaped, for error messages.
    func bodyExcerpt(limit: Int = 300) -> String {
        body.isEmpty ? "(empty body)" : Self.escaped(String(decoding: body.prefix(limit * 4), as: UTF8.self), limit: limit)
    }

    /// `text` cut to `limit` characters, every control character (newlines, ESC of a terminal escape
    /// sequence, DEL, C1) written as `\u{…}` so a peer's text can neither break a log line nor steer a terminal.
    static func escaped(_ text: String, limit: Int) -> String {
        var result = ""
        for (count, scalar) in text.unicodeScalars.enumerated() {
            guard count < limit else { return result + "…" }
            switch scalar.value {
            case 0..<0x20, 0x7F..<0xA0: result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
