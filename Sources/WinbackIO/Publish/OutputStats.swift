import WinbackAnalytics

/// A written output file: name, data rows (or lines), size and SHA-256, and its schema.
public struct OutputStats: Sendable {
    /// The file name inside `dt=<D>/`.
    public var name: String
    /// Data rows (CSV, header excluded) or lines (NDJSON).
    public var rows: Int
    /// Size on disk in bytes (compressed for gzip files).
    public var bytes: Int
    /// Lower-case hex SHA-256 of the bytes on disk.
    public var sha256: String
    /// Column names and types.
    public var schema: ReportSchema

    /// The stats of a written file.
    public init(name: String, rows: Int, bytes: Int, sha256: String, schema: ReportSchema) {
        self.name = name
        self.rows = rows
        self.bytes = bytes
        self.sha256 = sha256
        self.schema = schema
    }
}
