import WinbackAppStore

/// Reads the common shape of an App Store payload — one object whose members are plain strings, integers,
/// booleans, `null`, arrays of plain strings or objects of such plain values (`commitmentInfo`), every key
/// known — into one slot per key, without building a tree or any `String`. A nested object is only
/// delimited; its members are read by scanning its range again with its own keys.
///
/// It accepts a strict subset of what ``JSONParser`` accepts and reads the same values from it: strings of
/// printable ASCII without escapes, integers of at most 18 digits (always exact in `Int64`), each key once.
/// Anything else — an escape, non-ASCII text, a fraction or exponent, an array or object inside a nested
/// object, an unknown or repeated key, malformed JSON — makes ``scan(_:keys:into:)`` return `false`, and the caller decodes the
/// payload the general way, so errors and edge cases behave exactly as before.
public struct FlatJSONScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Scans `bytes` as one flat object; on success `slots[i]` holds the value of `keys.keys[i]` (or
    /// ``FlatValue/absent``). `slots` must have `keys.keys.count` elements, all ``FlatValue/absent``.
    public static func scan(_ bytes: UnsafeBufferPointer<UInt8>, keys: FlatKeyTable, into slots: UnsafeMutableBufferPointer<FlatValue>)
        -> Bool
    {
        var scanner = FlatJSONScanner(bytes: bytes)
        return scanner.scanObject(keys: keys, into: slots)
    }

    private mutating func scanObject(keys: FlatKeyTable, into slots: UnsafeMutableBufferPointer<FlatValue>) -> Bool {
        skipWhitespace()
        guard consume(UInt8(ascii: "{")) else { return false }
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return isAtEndAfterWhitespace() }
        while true {
            skipWhitespace()
            guard let key = scanPlainString(), let slot = keys.index(of: UnsafeBufferPointer(rebasing: bytes[key])),
                slots[slot].kind == .absent
            else { return false }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { return false }
            skipWhitespace()
            guard let value = scanValue() else { return false }
            slots[slot] = value
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            guard consume(UInt8(ascii: "}")) else { return false }
            return isAtEndAfterWhitespace()
        }
    }

    private mutating func scanValue(isNested: Bool = false) -> FlatValue? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{") where !isNested:
            let start = index
            index += 1
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return FlatValue(kind: .object, integer: 0, range: start..<index) }
            while true {
                skipWhitespace()
                guard scanPlainString() != nil else { return nil }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard scanValue(isNested: true) != nil else { return nil }
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                guard consume(UInt8(ascii: "}")) else { return nil }
                return FlatValue(kind: .object, integer: 0, range: start..<index)
            }
        case UInt8(ascii: "\""):
            guard let range = scanPlainString() else { return nil }
            return FlatValue(kind: .string, integer: 0, range: range)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let integer = scanInteger() else { return nil }
            return FlatValue(kind: .integer, integer: integer, range: 0..<0)
        case UInt8(ascii: "t"):
            guard consumeLiteral("true") else { return nil }
            return FlatValue(kind: .bool, integer: 1, range: 0..<0)
        case UInt8(ascii: "f"):
            guard consumeLiteral("false") else { return nil }
            return FlatValue(kind: .bool, integer: 0, range: 0..<0)
        case UInt8(ascii: "n"):
            guard consumeLiteral("null") else { return nil }
            return FlatValue(kind: .null, integer: 0, range: 0..<0)
        case UInt8(ascii: "[") where !isNested:
            index += 1
            let start = index
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return FlatValue(kind: .stringArray, integer: 0, range: start..<(index - 1)) }
            while true {
                skipWhitespace()
                guard scanPlainString() != nil else { return nil }
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                guard consume(UInt8(ascii: "]")) else { return nil }
                return FlatValue(kind: .stringArray, integer: 0, range: start..<(index - 1))
            }
        default:
            return nil
        }
    }

    /// The characters of a string of printable ASCII (no escape, no control, no byte ≥ 0x80), quotes consumed.
    private mutating func scanPlainString() -> Range<Int>? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = index
        guard let end = PlainString.end(bytes, from: start, to: bytes.count) else { return nil }
        index = end + 1
        return start..<end
    }

    /// `-?(0|[1-9][0-9]{0,17})` not followed by a fraction or exponent.
    private mutating func scanInteger() -> Int64? {
        let isNegative = consume(UInt8(ascii: "-"))
        let start = index
        var magnitude: Int64 = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            magnitude = magnitude &* 10 &+ Int64(bytes[index] &- UInt8(ascii: "0"))
            index += 1
        }
        let digits = index - start
        guard digits >= 1, digits <= 18, bytes[start] != UInt8(ascii: "0") || digits == 1 else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") { return nil }
        return isNegative ? -magnitude : magnitude
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func consumeLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
        index += count
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func isAtEndAfterWhitespace() -> Bool {
        skipWhitespace()
        return index == bytes.count
    }
}
