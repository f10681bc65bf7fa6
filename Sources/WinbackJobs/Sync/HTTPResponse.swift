/// An HTTP response as `winback sync` reads it.
struct HTTPResponse: Sendable {
    /// The status code.
    var status: Int
    /// Header fields, names lower-cased.
    var headers: [String: String]
    /// The whole body.
    var body: [UInt8]

    /// The first `limit` characters of the body on one line, for error messages.
    func bodyExcerpt(limit: Int = 300) -> String {
        let text = String(decoding: body.prefix(limit * 4), as: UTF8.self)
        let line = text.map { $0.isNewline ? " " : $0 }.prefix(limit)
        return body.isEmpty ? "(empty body)" : String(line) + (text.count > limit ? "…" : "")
    }
}
