/// A rejected record: where it came from, why, and its original text so it can be replayed.
public struct Rejection: Sendable, Equatable {
    /// Where the record was read.
    public var location: RecordLocation
    /// The first check that failed (SPEC §10 order).
    public var code: RejectCode
    /// What was expected and found, naming the field.
    public var message: String
    /// The original text: the NDJSON line, or the exact source text of the value inside a document
    /// (a JWS without its quotes).
    public var record: String

    /// A rejection of `record` (its original text) at `location`.
    public init(location: RecordLocation, code: RejectCode, message: String, record: String) {
        self.location = location
        self.code = code
        self.message = message
        self.record = record
    }

    /// A rejection of `record` for `failure`.
    public init(location: RecordLocation, failure: RecordFailure, record: String) {
        self.init(location: location, code: failure.code, message: failure.message, record: record)
    }

    /// Compiler-style rendering: `exports/tx.ndjson:17: error: invalid_signature: ES256 signature …`.
    public var diagnostic: String {
        let path = location.path.map { " (\($0))" } ?? ""
        return "\(location.source):\(location.line): error: \(code.rawValue): \(message)\(path)"
    }

    /// One line of `rejects.ndjson`: keys `source, line, path, code, message, record` in that order.
    public var jsonLine: String {
        JSONText.render(
            JSONText.object([
                ("source", .string(location.source)),
                ("line", .integer(Int64(location.line))),
                ("path", location.path.map { .string($0) } ?? .null),
                ("code", .string(code.rawValue)),
                ("message", .string(message)),
                ("record", .string(record)),
            ]))
    }
}
