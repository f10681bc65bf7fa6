/// Horizontal stacked bars, one row per category (products, offers, reject codes), with an x axis, an
/// optional note after each bar, and axis titles. Long labels are shortened; the full label is the tooltip.
struct HorizontalBarChart {
    var categories: [String]
    var series: [ChartSeries]
    var xTitle: String
    var yTitle: String
    /// Text written after each bar (e.g. the conversion rate), by category.
    var notes: [String]? = nil

    func rendered(label: String) -> String {
        let left = 250.0, right = 110.0, top = 24.0, bottom = 40.0, row = 24.0
        let width = 900.0
        let height = top + bottom + row * Double(max(1, categories.count))
        var canvas = SVGCanvas(width: width, height: height)
        let plotWidth = width - left - right
        var peak = 0.0
        for index in 0..<categories.count { peak = max(peak, series.compactMap { $0.values[index] }.reduce(0, +)) }
        let axis = ChartNumber.axis(maximum: peak, isCount: true)
        let x: (Double) -> Double = { left + plotWidth * $0 / axis.maximum }
        let plotBottom = top + row * Double(max(1, categories.count))
        var tick = 0.0
        while tick <= axis.maximum + axis.step / 1000 {
            canvas.line(x1: x(tick), y1: top, x2: x(tick), y2: plotBottom, stroke: tick == 0 ? "#444" : "#ddd")
            canvas.text(ChartNumber.grouped(Int(tick.rounded())), x: x(tick), y: plotBottom + 14, anchor: "middle", size: 10)
            tick += axis.step
        }
        for (index, category) in categories.enumerated() {
            let y = top + row * Double(index)
            canvas.text(HTMLText.truncate(category, to: 38), x: left - 8, y: y + row * 0.65, anchor: "end", size: 11)
            var base = 0.0
            for entry in series {
                guard let value = entry.values[index], value > 0 else { continue }
                canvas.rect(
                    x: x(base), y: y + row * 0.15, width: x(base + value) - x(base), height: row * 0.7, fill: entry.color,
                    tooltip: "\(category) · \(entry.name): \(ChartNumber.grouped(Int(value.rounded())))")
                base += value
            }
            if let notes, index < notes.count {
                canvas.text(notes[index], x: x(base) + 6, y: y + row * 0.65, size: 10, fill: "#444")
            }
        }
        canvas.text(xTitle, x: left + plotWidth / 2, y: height - 8, anchor: "middle", size: 12)
        canvas.text(yTitle, x: left - 8, y: 14, anchor: "end", size: 12, isBold: true)
        return canvas.rendered(label: label)
    }
}
