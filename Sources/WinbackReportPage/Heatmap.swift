/// A grid of coloured cells (retention: cohort month × period index) with each cell's text written in it.
struct Heatmap {
    struct Cell {
        /// Rate in [0, 1] that picks the colour; `nil` leaves the cell empty.
        var rate: Double?
        var text: String
        var tooltip: String
        /// Too few subscriptions to read a rate: drawn grey, its text the count, whatever the rate.
        var isSparse = false
    }

    var rowLabels: [String]
    var columnLabels: [String]
    /// `cells[row][column]`.
    var cells: [[Cell]]
    var xTitle: String
    var yTitle: String

    func rendered(label: String) -> String {
        let left = 78.0, top = 40.0, bottom = 12.0, right = 12.0
        let cellWidth = max(30.0, min(56.0, 800.0 / Double(max(1, columnLabels.count))))
        let cellHeight = 20.0
        let width = left + right + cellWidth * Double(columnLabels.count)
        let height = top + bottom + cellHeight * Double(rowLabels.count)
        var canvas = SVGCanvas(width: max(width, 300), height: height)
        canvas.text(xTitle, x: left + cellWidth * Double(columnLabels.count) / 2, y: 12, anchor: "middle", size: 12)
        canvas.text(yTitle, x: 4, y: top - 8, size: 12)
        for (column, columnLabel) in columnLabels.enumerated() {
            canvas.text(columnLabel, x: left + cellWidth * (Double(column) + 0.5), y: top - 8, anchor: "middle", size: 10)
        }
        for (row, rowLabel) in rowLabels.enumerated() {
            let y = top + cellHeight * Double(row)
            canvas.text(rowLabel, x: left - 6, y: y + cellHeight * 0.7, anchor: "end", size: 10)
            for (column, cell) in cells[row].enumerated() {
                guard let rate = cell.rate else { continue }
                let x = left + cellWidth * Double(column)
                let fill = cell.isSparse ? Self.sparseFill : ChartPalette.ramp(rate)
                canvas.rect(x: x, y: y, width: cellWidth - 1, height: cellHeight - 1, fill: fill, tooltip: cell.tooltip)
                canvas.text(
                    cell.text, x: x + cellWidth / 2, y: y + cellHeight * 0.7, anchor: "middle", size: 9,
                    fill: cell.isSparse ? "#666" : rate > 0.55 ? "#fff" : "#222")
            }
        }
        return canvas.rendered(label: label)
    }

    /// The fill of a cell with too few subscriptions to read.
    static let sparseFill = "#e4e4e4"

    /// The colour scale of the heatmap as HTML (a gradient from 0 % to 100 %).
    static var legend: String {
        let stops = stride(from: 0, through: 100, by: 25).map { "\(ChartPalette.ramp(Double($0) / 100)) \($0)%" }.joined(separator: ", ")
        return
            "<div class=\"ramp\"><span>0 %</span><span class=\"gradient\" style=\"background:linear-gradient(to right, \(stops))\"></span><span>100 % retained</span></div>"
    }
}
