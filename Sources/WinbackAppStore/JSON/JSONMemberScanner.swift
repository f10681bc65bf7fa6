/// Finds one member of a JSON object without building a tree: the shard rule (docs/sharding.md) reads a payload's
/// `originalTransactionId` this way before the payload is verified, for every record of every shard.
///
/// Only the object's own members are compared (nested values are skipped whole); the first member with the
/// key wins and ends the scan. Keys are compared as written (an escaped key never matches). The bytes may
/// be a prefix of the object (``Match/truncated``: scan more of it).
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

    /// What a scan found.
    public enum Match: Sendable, Equatable {
        /// The first member with the key.
        case found(Value)
        /// The object ends without the key, or the bytes are not an object.
        case absent
        /// The bytes end before the object does and before the key was found.
        case truncated
    }

    /// The value of the first member `key` of the object at the start of `bytes`, or `nil` when there is
    /// none (or the bytes are not a well-formed object, or end before it was found).
    public static func value(of key: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        if case .found(let value) = match(key, in: bytes) { return value }
        return nil
    }

    /// Scans the object at the start of `bytes` (perhaps a prefix of it) for its first member `key`.
    public static func match(_ key: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Match {
        var scanner = Scanner(bytes: bytes)
        return scanner.member(key)
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        /// Set when the bytes ended inside the object.
        var ranOut = false

        static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

        mutating func skipWhitespace() {
            while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
        }

        /// The current byte, or `nil` (and ``ranOut``) at the end.
        mutating func peek() -> UInt8? {
            guard index < bytes.count else {
                ranOut = true
                return nil
            }
            return bytes[index]
        }

        /// Past a string whose opening quote is at `index`; the range inside the quotes.
        mutating func string() -> Range<Int>? {
            guard peek() == UInt8(ascii: "\"") else { return nil }
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
            ranOut = true
            return nil
        }

        /// Past an object or array at `index`, strings inside included.
        mutating func composite() -> Bool {
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
            ranOut = true
            return false
        }

        mutating func member(_ key: [UInt8]) -> Match {
            let result = scan(key)
            if case .found = result { return result }
            return ranOut ? .truncated : .absent
        }

        private mutating func scan(_ key: [UInt8]) -> Match {
            skipWhitespace()
            guard peek() == UInt8(ascii: "{") else { return .absent }
            index += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { return .absent }
            while true {
                skipWhitespace()
                guard let name = string() else { return .absent }
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { return .absent }
                index += 1
                skipWhitespace()
                guard let first = peek() else { return .absent }
                let value: Value
                switch first {
                case UInt8(ascii: "\""):
                    guard let range = string() else { return .absent }
                    value = Value(range: range, isString: true, isObject: false)
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let start = index
                    guard composite() else { return .absent }
                    value = Value(range: start..<index, isString: false, isObject: first == UInt8(ascii: "{"))
                default:
                    let start = index
                    while index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: "}"),
                        !Self.isWhitespace(bytes[index])
                    {
                        index += 1
                    }
                    if index == bytes.count { ranOut = true }
                    guard index > start, index < bytes.count else { return .absent }
                    value = Value(range: start..<index, isString: false, isObject: false)
                }
                if bytes[name].elementsEqual(key) { return .found(value) }
                skipWhitespace()
                guard let next = peek() else { return .absent }
                if next == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                return .absent
            }
        }
    }
}
