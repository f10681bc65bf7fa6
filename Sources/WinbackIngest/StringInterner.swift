import WinbackCore

/// Shares one storage among equal strings (product ids, storefronts, offer identifiers), so a million
/// transactions do not hold a million copies of `com.example.app.monthly`.
public struct StringInterner: Sendable {
    private var table: [String: String] = [:]

    public init() {}

    public mutating func intern(_ string: String) -> String {
        if let existing = table[string] { return existing }
        table[string] = string
        return string
    }

    public mutating func intern(_ string: String?) -> String? {
        string.map { intern($0) }
    }
}
