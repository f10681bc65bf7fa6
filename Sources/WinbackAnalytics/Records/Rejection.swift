import Foundation
import WinbackAppStore

/// A rejected record: where it came from, why, and its original text so it can be replayed.
public struct Rejection: Sendable, Equatable {
    /// Where the record was read.
    public var location: RecordLocation
    /// The first check that failed (the check order of docs/inputs.md).
    public var code: RejectCode
    /// What was expected and found, naming the field.
    public var message: String
    /// The original text: the NDJSON line, or the exact source text of the value inside a document
    /// (a JWS without its quotes).
    public var record: String
    /// The original bytes in standard base64 when they are not valid UTF-8 (``record`` then holds them with
    /// U+FFFD in place of the invalid bytes), so every reject replays exactly; `nil` otherwise.
    public var recordBase64: String?

    /// A rejection of `record` (its original text) at `location`.
    public init(location: RecordLocation, code: RejectCode, message: String, record: String, recordBase64: String? = nil) {
        self.location = location
        self.code = code
        self.message = message
        self.record = record
        self.recordBase64 = recordBase64
    }

    /// A rejection of `record` for `failure`.
    public init(location: RecordLocation, failure: RecordFailure, record: String) {
        self.init(location: location, code: failure.code, message: failure.message, record: record)
    }

    /// A rejection of the record whose original text is `text`, for `failure`.
    public init(location: RecordLocation, failure: RecordFailure, text: RecordText) {
        self.init(
            location: location, code: failure.code, message: failure.message, record: text.string,
            recordBase64: text.invalidUTF8Bytes.map { Data($0).base64EncodedString() })
    }

    /// Compiler-style rendering: `exports/tx.ndjson:17: error: invalid_signature: ES256 signature …`, on
    /// one line whatever the file name holds (line breaks and control characters are escaped).
    public var diagnostic: String {
        let path = location.path.map { " (\(Self.escaped($0)))" } ?? ""
        return "\(Self.escaped(location.source)):\(location.line): error: \(code.rawValue): \(Self.escaped(message))\(path)"
    }

    /// `text` with control characters written as `\n`, `\r`, `\t` or `\u{…}`, so it stays on one line.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// One line of `rejects.ndjson`: keys `source, line, path, code, message, record` in that order, and
    /// `recordBase64` after them for a record that is not valid UTF-8.
    public var jsonLine: String {
        var members: [(String, JSONValue)] = [
            ("source", .string(location.source)),
            ("line", .integer(Int64(location.line))),
            ("path", location.path.map { .string($0) } ?? .null),
            ("code", .string(code.rawValue)),
            ("message", .string(message)),
            ("record", .string(record)),
        ]
        if let recordBase64 { members.append(("recordBase64", .string(recordBase64))) }
        return JSONText.render(JSONText.object(members))
    }
}
