/// Reads the numbers back out of a rendered `report.html` (its tables and figures carry each report value
/// in `data-column` / `data-value` attributes).
public enum ReportPageReader {
    /// The rows of the table with `id`: per row, `data-column` → `data-value` (or the cell text for label cells).
    public static func table(_ html: String, id: String) -> [[String: String]]? {
        guard let start = html.range(of: "<table id=\"\(id)\">"), let end = html[start.upperBound...].range(of: "</table>") else {
            return nil
        }
        return html[start.upperBound..<end.lowerBound].components(separatedBy: "<tr>").dropFirst(2).map { row in
            var values: [String: String] = [:]
            for cell in row.components(separatedBy: "data-column=\"").dropFirst() {
                let column = String(cell.prefix { $0 != "\"" })
                if let value = cell.range(of: "data-value=\"") {
                    values[column] = String(cell[value.upperBound...].prefix { $0 != "\"" })
                } else if let text = cell.range(of: "\">") {
                    values[column] = String(cell[text.upperBound...].prefix { $0 != "<" })
                }
            }
            return values
        }
    }

    /// The `data-value` of the first figure (`<b data-column=…>`) with `column` inside the section `id`.
    public static func figure(_ html: String, section id: String, column: String) -> String? {
        guard let start = html.range(of: "<section id=\"\(id)\">"), let end = html[start.upperBound...].range(of: "</section>"),
            let figure = html[start.upperBound..<end.lowerBound].range(of: "<b data-column=\"\(column)\" data-value=\"")
        else { return nil }
        return String(html[figure.upperBound...].prefix { $0 != "\"" })
    }
}
