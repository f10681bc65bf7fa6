/// An Apple identifier held in 8 bytes when it is a canonical decimal number (every transaction id Apple
/// issues is), else as its text. A 16-digit id as a `String` costs a 64-byte heap object; ten million of
/// them are most of a nightly run's memory.
public enum CompactIdentifier: Sendable, Hashable {
    case number(UInt64)
    case text(String)

    /// `text` as a number when it is 1–19 digits without a leading zero (so it prints back identically).
    public init(_ text: String) {
        var contiguous = text
        if let number = contiguous.withUTF8(Self.number(utf8:)) {
            self = .number(number)
        } else {
            self = .text(text)
        }
    }

    /// The identifier spelled by UTF-8 `bytes`; equal to `CompactIdentifier(String(decoding: bytes, as: UTF8.self))`
    /// without building the string when it is a number.
    public init(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        if let number = Self.number(utf8: bytes) {
            self = .number(number)
        } else {
            self = .text(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The value of 1–19 digits without a leading zero; `nil` for anything else.
    private static func number(utf8 bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard bytes.count <= 19, let first = bytes.first, first != 0x30 || bytes.count == 1, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { return nil }
        // 19 digits are below UInt64.max (20 digits), so this cannot overflow.
        return bytes.reduce(0) { $0 &* 10 &+ UInt64($1 &- 0x30) }
    }

    /// The identifier as Apple wrote it.
    public var string: String {
        switch self {
        case .number(let value): String(value)
        case .text(let text): text
        }
    }

    /// ``IdentifierOrder`` without building strings for two numbers.
    public static func precedes(_ lhs: CompactIdentifier, _ rhs: CompactIdentifier) -> Bool {
        if case .number(let left) = lhs, case .number(let right) = rhs { return left < right }
        return IdentifierOrder.less(lhs.string, rhs.string)
    }
}
