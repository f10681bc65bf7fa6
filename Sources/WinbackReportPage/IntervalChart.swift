/// Horizontal point estimates with interval whiskers (a campaign's lift and its 95 % interval), on an axis
/// of percentage points with a zero line.
struct IntervalChart {
    /// One row: a label, the estimate and its interval, as fractions (0.25 = 25 points).
    struct Row {
        var label: String
        var estimate: Double
        var low: Double
        var high: Double
    }

    var rows: [Row]
    var xTitle: String

    func rendered(label: String) -> String {
        let left = 250.0, right = 24.0, top = 16.0, rowHeight = 28.0
        let width = 900.0, height = top + rowHeight * Double(max(1, rows.count)) + 44
        var canvas = SVGCanvas(width: width, height: height)
        let plotWidth = width - left - right
        let minimum = min(-0.1, rows.map(\.low).min() ?? 0)
        let maximum = max(0.1, rows.map(\.high).max() ?? 0)
        let x: (Double) -> Double = { left + plotWidth * ($0 - minimum) / (maximum - minimum) }
        let bottom = top + rowHeight * Double(rows.count)
        let step = ChartNumber.axis(maximum: maximum - minimum, isCount: false).step
        var tick = (minimum / step).rounded(.down) * step
        while tick <= maximum + step / 1000 {
            if tick >= minimum - step / 1000 {
                canvas.line(x1: x(tick), y1: top, x2: x(tick), y2: bottom, stroke: abs(tick) < step / 1000 ? "#444" : "#ddd")
                canvas.text(ChartNumber.fixed(tick * 100, 0), x: x(tick), y: bottom + 14, anchor: "middle", size: 10)
            }
            tick += step
        }
        for (index, row) in rows.enumerated() {
            let y = top + rowHeight * (Double(index) + 0.5)
            canvas.text(row.label, x: left - 8, y: y + 4, anchor: "end", size: 11)
            canvas.line(x1: x(row.low), y1: y, x2: x(row.high), y2: y, stroke: ChartPalette.category(0))
            canvas.line(x1: x(row.low), y1: y - 6, x2: x(row.low), y2: y + 6, stroke: ChartPalette.category(0))
            canvas.line(x1: x(row.high), y1: y - 6, x2: x(row.high), y2: y + 6, stroke: ChartPalette.category(0))
            canvas.rect(
                x: x(row.estimate) - 4, y: y - 4, width: 8, height: 8, fill: ChartPalette.category(0),
                tooltip:
                    "\(row.label): \(ChartNumber.fixed(row.estimate * 100, 1)) points (95 % interval \(ChartNumber.fixed(row.low * 100, 1)) to \(ChartNumber.fixed(row.high * 100, 1)))"
            )
        }
        canvas.text(xTitle, x: left + plotWidth / 2, y: height - 8, anchor: "middle", size: 12)
        return canvas.rendered(label: label)
    }
}
