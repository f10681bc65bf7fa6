import WinbackCore

/// A written output file: name, data rows (or lines), size and SHA-256, and its schema.
public struct OutputStats: Sendable {
    public var name: String
    public var rows: Int
    public var bytes: Int
    public var sha256: String
    public var schema: ReportSchema
}
