import WinbackAnalytics

/// A data table on the report page. Every numeric cell carries the exact report value in `data-value`
/// (the CSV or summary text) next to its display text, so tests and scripts can check the page against
/// the files.
struct HTMLTable {
    struct Cell {
        var display: String
        /// Column name as in the report file (`data-column`).
        var column: String
        /// The value as written in the report file (`data-value`); `nil` for label cells.
        var value: String?

        static func label(_ text: String, column: String) -> Cell { Cell(display: text, column: column, value: nil) }
        static func count(_ value: Int, column: String) -> Cell {
            Cell(display: ChartNumber.grouped(value), column: column, value: String(value))
        }
        /// A rate cell from its millionths (`nil`: empty, shown as "–").
        static func rate(_ millionths: Int64?, column: String) -> Cell {
            Cell(
                display: ChartNumber.percent(millionths: millionths), column: column,
                value: millionths.map(RateFormat.text(millionths:)) ?? "")
        }
    }

    var id: String
    var headers: [String]
    var rows: [[Cell]]
    /// Shown under the table when rows were left out (e.g. "12 more rows in offer_usage.csv.gz").
    var footnote: String? = nil

    var rendered: String {
        var html = "<table id=\"\(id)\"><thead><tr>" + headers.map { "<th>\(HTMLText.escape($0))</th>" }.joined() + "</tr></thead><tbody>"
        for row in rows {
            html += "<tr>"
            for cell in row {
                if let value = cell.value {
                    html +=
                        "<td class=\"num\" data-column=\"\(HTMLText.escape(cell.column))\" data-value=\"\(HTMLText.escape(value))\">\(HTMLText.escape(cell.display))</td>"
                } else {
                    html += "<td data-column=\"\(HTMLText.escape(cell.column))\">\(HTMLText.escape(cell.display))</td>"
                }
            }
            html += "</tr>"
        }
        html += "</tbody></table>"
        if let footnote { html += "<p class=\"note\">\(HTMLText.escape(footnote))</p>" }
        return html
    }
}
