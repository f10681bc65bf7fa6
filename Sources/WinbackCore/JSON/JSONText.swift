/// Writes JSON text: string escaping and compact rendering with keys in the given order.
public enum JSONText {
    /// `value` as a JSON string literal, quotes included. Non-ASCII characters are written as UTF-8.
    public static func quoted(_ value: String) -> String {
        let utf8 = value.utf8
        let needsEscape = utf8.contains { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }
        guard needsEscape else { return "\"" + value + "\"" }
        var output: [UInt8] = [0x22]
        output.reserveCapacity(utf8.count + 16)
        for byte in utf8 {
            switch byte {
            case 0x22: output += [0x5C, 0x22]
            case 0x5C: output += [0x5C, 0x5C]
            case 0x0A: output += [0x5C, UInt8(ascii: "n")]
            case 0x0D: output += [0x5C, UInt8(ascii: "r")]
            case 0x09: output += [0x5C, UInt8(ascii: "t")]
            case 0x08: output += [0x5C, UInt8(ascii: "b")]
            case 0x0C: output += [0x5C, UInt8(ascii: "f")]
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output += [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: output.append(byte)
            }
        }
        output.append(0x22)
        return String(decoding: output, as: UTF8.self)
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
