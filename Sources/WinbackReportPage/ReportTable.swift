import WinbackAnalytics

/// A report's rows (exactly the strings written to its CSV) read by column name.
struct ReportTable {
    let schema: ReportSchema
    let rows: [[String?]]
    private let positions: [String: Int]

    init(_ schema: ReportSchema, rows: [[String?]]) {
        self.schema = schema
        self.rows = rows
        var positions: [String: Int] = [:]
        for (index, column) in schema.columns.enumerated() { positions[column.name] = index }
        self.positions = positions
    }

    /// The CSV text of `column` in `row` (`nil` when empty). `column` must be one of the schema's columns.
    func text(_ row: [String?], _ column: String) -> String? {
        guard let index = positions[column] else { preconditionFailure("\(schema.name) has no column '\(column)'") }
        return index < row.count ? row[index] : nil
    }

    /// The integer value of `column` in `row` (0 when empty).
    func integer(_ row: [String?], _ column: String) -> Int { text(row, column).flatMap { Int($0) } ?? 0 }
}
