/// Row ordering of report key columns (docs/analysts.md): empty (nil) first, integers numerically, text by code point.
public enum TextOrder {
    /// Report row order for a text column: `nil` first, then code-point order.
    public static func less(_ lhs: String?, _ rhs: String?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return false
        case (nil, _): return true
        case (_, nil): return false
        case (let left?, let right?): return CodePointOrder.less(left, right)
        }
    }

    /// Report row order for a comparable column: `nil` first, then ascending.
    public static func less<T: Comparable>(_ lhs: T?, _ rhs: T?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return false
        case (nil, _): return true
        case (_, nil): return false
        case (let left?, let right?): return left < right
        }
    }
}
