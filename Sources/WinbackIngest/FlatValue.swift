import WinbackAnalytics

/// One member value of a flat JSON object as ``FlatJSONScanner`` found it: where its text is and, for a
/// number or boolean, its value. Strings are ASCII without escapes, so their bytes are their characters.
public struct FlatValue: Sendable, Equatable {
    /// What a member held.
    public enum Kind: UInt8, Sendable {
        /// The key did not occur.
        case absent
        case null
        case string
        case integer
        case bool
        /// An array of strings; ``range`` spans the text between the brackets.
        case stringArray
        /// An object whose members are plain values (no array or object); ``range`` spans it, braces included.
        case object
    }

    /// What the member held.
    public var kind: Kind
    /// The integer, or 1 / 0 for `true` / `false`.
    public var integer: Int64
    /// Byte offsets of a string's characters (without the quotes), of an array's contents or of an object.
    public var range: Range<Int>

    /// A key that did not occur.
    public static let absent = FlatValue(kind: .absent, integer: 0, range: 0..<0)

    /// A value of `kind`.
    public init(kind: Kind, integer: Int64, range: Range<Int>) {
        self.kind = kind
        self.integer = integer
        self.range = range
    }

    /// Present and not `null`.
    public var isPresent: Bool { kind != .absent && kind != .null }
    /// The integer, when the member is one (a value checked to fit 32 bits by the caller).
    public var int32: Int32? { kind == .integer ? Int32(truncatingIfNeeded: integer) : nil }
    /// The integer, when the member is one.
    public var int64: Int64? { kind == .integer ? integer : nil }
}
