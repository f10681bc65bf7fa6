/// One HTTP response of `winback serve`, independent of the server library that sends it.
public struct ServeReply: Sendable, Equatable {
    /// The status code (200, 400, 404, 405, 413).
    public var status: Int
    /// The `Content-Type` header.
    public var contentType: String
    /// The body's bytes.
    public var body: [UInt8]
    /// The methods an endpoint takes, for a 405's `Allow` header.
    public var allow: String?

    /// A JSON reply.
    static func json(_ status: Int, _ text: String, allow: String? = nil) -> ServeReply {
        ServeReply(status: status, contentType: "application/json", body: Array(text.utf8), allow: allow)
    }
}
