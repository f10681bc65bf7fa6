/// Writes JSON text: string escaping and compact rendering with keys in the given order.
public enum JSONText {
    /// `value` as a JSON string literal, quotes included. Non-ASCII characters are written as UTF-8.
    public static func quoted(_ value: String) -> String {
        var output = ""
        appendQuoted(value, to: &output)
        return output
    }

    /// Appends `value` as a JSON string literal to `output`.
    static func appendQuoted(_ value: String, to output: inout String) {
        var value = value
        let needsEscape = value.withUTF8 { bytes in bytes.contains { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 } }
        guard needsEscape else {
            output += "\""
            output += value
            output += "\""
            return
        }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(value.utf8.count + 16)
        appendQuoted(value, to: &escaped)
        output += String(decoding: escaped, as: UTF8.self)
    }

    /// Appends `value` as a JSON string literal to the UTF-8 bytes `output`: `"` and `\\` escaped, control
    /// characters as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`, everything else as is.
    public static func appendQuoted(_ value: String, to output: inout [UInt8]) {
        var value = value
        output.append(0x22)
        value.withUTF8 { bytes in
            guard bytes.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) else {
                output.append(contentsOf: bytes)
                return
            }
            for byte in bytes {
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
        }
        output.append(0x22)
    }

    /// Compact JSON text of `value`; object members in their stored order.
    public static func render(_ value: JSONValue) -> String {
        var output = ""
        append(value, to: &output)
        return output
    }

    /// Appends the compact JSON text of `value` to `output` (one growing string, no text per member).
    static func append(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .integer(let number): output += String(number)
        case .double(let number):
            if number.isFinite, number == number.rounded(), abs(number) < 1e15 {
                output += String(Int64(number))
            } else {
                output += "\(number)"
            }
        case .string(let string): appendQuoted(string, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                append(element.value, to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                appendQuoted(member.key, to: &output)
                output += ":"
                append(member.value, to: &output)
            }
            output += "}"
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
