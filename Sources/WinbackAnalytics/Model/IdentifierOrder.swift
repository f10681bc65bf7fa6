/// The order of Apple identifiers (docs/analysts.md): two digit strings compare as decimal integers, anything
/// else compares as strings by code point. `"9" < "10"`, `"10" < "a"`.
public enum IdentifierOrder {
    /// `true` when `lhs` sorts before `rhs`.
    public static func less(_ lhs: String, _ rhs: String) -> Bool {
        if let left = digits(lhs), let right = digits(rhs) {
            if left.count != right.count { return left.count < right.count }
            return left.lexicographicallyPrecedes(right)
        }
        return CodePointOrder.less(lhs, rhs)
    }

    /// The digits without leading zeros, when `text` is a non-empty digit string.
    private static func digits(_ text: String) -> Substring.UTF8View? {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let trimmed = Substring(text).drop { $0 == "0" }
        return trimmed.utf8
    }
}
