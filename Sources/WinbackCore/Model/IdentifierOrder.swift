/// The order of Apple identifiers (SPEC §10): two digit strings compare as decimal integers, anything
/// else compares as strings by code point. `"9" < "10"`, `"10" < "a"`.
public enum IdentifierOrder {
    /// `true` when `lhs` sorts before `rhs`.
    public static func less(_ lhs: String, _ rhs: String) -> Bool {
        if let left = digits(lhs), let right = digits(rhs) {
            if left.count != right.count { return left.count < right.count }
            return left.lexicographicallyPrecedes(right)
        }
        return lhs.unicodeScalars.lexicographicallyPrecedes(rhs.unicodeScalars)
    }

    /// The digits without leading zeros, when `text` is a non-empty digit string.
    private static func digits(_ text: String) -> Substring.UTF8View? {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let trimmed = Substring(text).drop { $0 == "0" }
        return trimmed.utf8
    }

    /// A precomputed sort key with the same order as ``less(_:_:)``, for sorting many identifiers.
    public struct Key: Comparable, Sendable {
        let number: UInt64?
        let text: String

        public init(_ text: String) {
            self.text = text
            let utf8 = text.utf8
            if utf8.count <= 19, !utf8.isEmpty, utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { number = UInt64(text) } else { number = nil }
        }

        public static func < (lhs: Key, rhs: Key) -> Bool {
            if let left = lhs.number, let right = rhs.number { return left < right }
            return IdentifierOrder.less(lhs.text, rhs.text)
        }

        public static func == (lhs: Key, rhs: Key) -> Bool { lhs.text == rhs.text }
    }
}
