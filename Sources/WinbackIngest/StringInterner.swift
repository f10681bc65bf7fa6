/// Shares one storage among equal strings (product ids, storefronts, offer identifiers), so a million
/// transactions do not hold a million copies of `com.example.app.monthly`.
public struct StringInterner: Sendable {
    private var table: [String: String] = [:]

    /// An empty table.
    public init() {}

    /// The table's copy of `string` (added when new).
    public mutating func intern(_ string: String) -> String {
        if let existing = table[string] { return existing }
        table[string] = string
        return string
    }

    /// The table's copy of `string`, or `nil`.
    public mutating func intern(_ string: String?) -> String? {
        string.map { intern($0) }
    }
}
