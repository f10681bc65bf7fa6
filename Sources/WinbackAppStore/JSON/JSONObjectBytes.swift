/// One flat JSON object written straight into UTF-8 bytes, members in the order they are added: for text
/// made once per signed offer (the offer line, the JWS claims), where building a ``JSONValue`` tree and
/// growing a `String` piece by piece cost more than the rest of the line. Strings are escaped as
/// ``JSONText`` escapes them, so the bytes are those of `JSONText.render` of the same members.
public struct JSONObjectBytes {
    /// The object's text so far; call ``finish()`` for the closing brace.
    public private(set) var bytes: [UInt8]

    /// An empty object, with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// `"key":` after a comma when a member precedes it. Keys are plain ASCII (Apple's names and ours).
    private mutating func key(_ key: StaticString) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// A string member; `null` when `value` is `nil`.
    public mutating func add(_ key: StaticString, _ value: String?) {
        self.key(key)
        if let value { JSONText.appendQuoted(value, to: &bytes) } else { bytes.append(contentsOf: "null".utf8) }
    }

    /// An integer member.
    public mutating func add(_ key: StaticString, _ value: Int64) {
        self.key(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    /// An integer member; `null` when `value` is `nil`.
    public mutating func add(_ key: StaticString, _ value: Int64?) {
        self.key(key)
        if let value { bytes.append(contentsOf: String(value).utf8) } else { bytes.append(contentsOf: "null".utf8) }
    }

    /// An array-of-strings member; `null` when `values` is `nil`.
    public mutating func add(_ key: StaticString, _ values: [String]?) {
        self.key(key)
        guard let values else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A boolean member.
    public mutating func add(_ key: StaticString, _ value: Bool) {
        self.key(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// The object's complete text.
    public mutating func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
