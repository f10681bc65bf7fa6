/// Vertical bars per category (months, campaigns), stacked or side by side, with a y axis, gridlines,
/// axis titles and an optional highlighted category.
struct VerticalBarChart {
    var categories: [String]
    var series: [ChartSeries]
    var isStacked: Bool
    var xTitle: String
    var yTitle: String
    /// Whether values are counts (integer ticks) or rates in [0, 1] (percent ticks).
    var isCount: Bool
    var highlighted: (index: Int, label: String)? = nil

    func rendered(label: String) -> String {
        let left = 68.0, right = 16.0, top = 22.0, bottom = 58.0
        let width = 900.0, height = 320.0
        var canvas = SVGCanvas(width: width, height: height)
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let count = max(1, categories.count)
        var peak = 0.0
        for index in 0..<categories.count {
            let values = series.compactMap { $0.values[index] }
            peak = max(peak, isStacked ? values.reduce(0, +) : (values.max() ?? 0))
        }
        let axis = ChartNumber.axis(maximum: peak, isCount: isCount)
        let y: (Double) -> Double = { top + plotHeight * (1 - $0 / axis.maximum) }
        var tick = 0.0
        while tick <= axis.maximum + axis.step / 1000 {
            canvas.line(x1: left, y1: y(tick), x2: left + plotWidth, y2: y(tick), stroke: tick == 0 ? "#444" : "#ddd")
            canvas.text(format(tick), x: left - 6, y: y(tick) + 4, anchor: "end", size: 10)
            tick += axis.step
        }
        let slot = plotWidth / Double(count)
        let barWidth = isStacked ? slot * 0.72 : slot * 0.8 / Double(max(1, series.count))
        if let highlighted, highlighted.index < categories.count {
            let x = left + slot * Double(highlighted.index)
            canvas.rect(x: x, y: top, width: slot, height: plotHeight, fill: "#fff4d6")
            canvas.text(highlighted.label, x: x + slot / 2, y: top - 8, anchor: "middle", size: 10, isBold: true)
        }
        for (index, category) in categories.enumerated() {
            var base = 0.0
            for (position, entry) in series.enumerated() {
                guard let value = entry.values[index], value > 0 else { continue }
                let x = left + slot * Double(index) + (isStacked ? (slot - barWidth) / 2 : slot * 0.1 + barWidth * Double(position))
                let low = isStacked ? base : 0
                canvas.rect(
                    x: x, y: y(low + value), width: barWidth, height: y(low) - y(low + value), fill: entry.color,
                    tooltip: "\(category) · \(entry.name): \(format(value))")
                if isStacked { base += value }
            }
        }
        let every = max(1, Int((Double(categories.count) / 14).rounded(.up)))
        for (index, category) in categories.enumerated() where index % every == 0 {
            canvas.text(
                HTMLText.truncate(category, to: max(6, Int(slot * Double(every) / 6.5))), x: left + slot * (Double(index) + 0.5),
                y: top + plotHeight + 16, anchor: "middle", size: 10)
        }
        canvas.text(xTitle, x: left + plotWidth / 2, y: height - 8, anchor: "middle", size: 12)
        canvas.text(yTitle, x: 14, y: top + plotHeight / 2, anchor: "middle", size: 12, rotation: -90)
        return canvas.rendered(label: label)
    }

    private func format(_ value: Double) -> String {
        isCount ? ChartNumber.grouped(Int(value.rounded())) : ChartNumber.percent(value)
    }
}
