/// Finds one member of a JSON object without building a tree: the shard rule (SPEC §16) reads a payload's
/// `originalTransactionId` this way before the payload is verified, for every record of every shard.
///
/// Only the object's own members are compared (nested values are skipped whole); a repeated key gives its
/// last value, as ``JSONParser`` does. Keys are compared as written (an escaped key never matches).
public enum JSONMemberScanner {
    /// A member's value: its byte range (inside the quotes for a string) and whether it is a string.
    public struct Value: Sendable, Equatable {
        /// The value's bytes: for a string, between its quotes (escapes as written).
        public var range: Range<Int>
        /// The value is a JSON string.
        public var isString: Bool
        /// The value is a JSON object (`range` then spans its braces).
        public var isObject: Bool
    }

    /// The value of the last member `key` of the object that `bytes` holds, or `nil` when there is none or
    /// `bytes` is not a well-formed object up to its end.
    public static func value(of key: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        var index = 0
        func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
        /// Past a string whose opening quote is at `index`; the range inside the quotes.
        func string() -> Range<Int>? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    return start..<(index - 1)
                default: index += 1
                }
            }
            return nil
        }
        /// Past an object or array at `index`, strings inside included.
        func composite() -> Bool {
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard string() != nil else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return true
                    }
                default: break
                }
                index += 1
            }
            return false
        }

        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { return nil }
        var found: Value? = nil
        while true {
            skipWhitespace()
            guard let name = string() else { return nil }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipWhitespace()
            guard index < bytes.count else { return nil }
            let value: Value
            switch bytes[index] {
            case UInt8(ascii: "\""):
                guard let range = string() else { return nil }
                value = Value(range: range, isString: true, isObject: false)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let start = index
                let isObject = bytes[index] == UInt8(ascii: "{")
                guard composite() else { return nil }
                value = Value(range: start..<index, isString: false, isObject: isObject)
            default:
                let start = index
                while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                    index += 1
                }
                guard index > start else { return nil }
                value = Value(range: start..<index, isString: false, isObject: false)
            }
            if bytes[name].elementsEqual(key) { found = value }
            skipWhitespace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { return nil }
            return found
        }
    }
}
