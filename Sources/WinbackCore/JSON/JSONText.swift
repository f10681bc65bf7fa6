/// Writes JSON text: string escaping and compact rendering with keys in the given order.
public enum JSONText {
    /// `value` as a JSON string literal, quotes included. Non-ASCII characters are written as UTF-8.
    public static func quoted(_ value: String) -> String {
        var output = "\""
        output.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
        return output
    }

    /// Compact JSON text of `value`; object members in their stored order.
    public static func render(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .double(let number):
            if number.isFinite, number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
            return "\(number)"
        case .string(let string): return quoted(string)
        case .array(let elements): return "[" + elements.map { render($0.value) }.joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { quoted($0.key) + ":" + render($0.value) }.joined(separator: ",") + "}"
        }
    }

    /// Builds an object value from key/value pairs in the given order (byte ranges are not meaningful).
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { JSONMember(key: $0.key, value: $0.value, range: 0..<0) })
    }

    /// Builds an object value from an ordered list of pairs.
    public static func object(_ pairs: [(String, JSONValue)]) -> JSONValue {
        .object(pairs.map { JSONMember(key: $0.0, value: $0.1, range: 0..<0) })
    }

    /// Builds an array value.
    public static func array(_ values: [JSONValue]) -> JSONValue {
        .array(values.map { JSONElement(value: $0, range: 0..<0) })
    }
}
