/// Lines over numbered steps (an LTV curve per cohort: month index → value), with a y axis, gridlines,
/// axis titles and a dot per point carrying its value as a tooltip.
struct LineChart {
    /// The x labels, one per step.
    var steps: [String]
    /// One line per series; a `nil` value breaks the line.
    var series: [ChartSeries]
    var xTitle: String
    var yTitle: String

    func rendered(label: String) -> String {
        let left = 68.0, right = 16.0, top = 22.0, bottom = 58.0
        let width = 900.0, height = 320.0
        var canvas = SVGCanvas(width: width, height: height)
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let peak = series.flatMap { $0.values.compactMap { $0 } }.max() ?? 0
        let axis = ChartNumber.axis(maximum: max(0, peak), isCount: true)
        let y: (Double) -> Double = { top + plotHeight * (1 - max(0, $0) / axis.maximum) }
        let x: (Int) -> Double = { left + plotWidth * (Double($0) + 0.5) / Double(max(1, steps.count)) }
        var tick = 0.0
        while tick <= axis.maximum + axis.step / 1000 {
            canvas.line(x1: left, y1: y(tick), x2: left + plotWidth, y2: y(tick), stroke: tick == 0 ? "#444" : "#ddd")
            canvas.text(ChartNumber.grouped(Int(tick)), x: left - 6, y: y(tick) + 4, anchor: "end", size: 10)
            tick += axis.step
        }
        for line in series {
            var previous: (Int, Double)? = nil
            for (index, value) in line.values.enumerated() {
                guard let value else {
                    previous = nil
                    continue
                }
                if let (lastIndex, lastValue) = previous {
                    canvas.line(x1: x(lastIndex), y1: y(lastValue), x2: x(index), y2: y(value), stroke: line.color)
                }
                canvas.rect(
                    x: x(index) - 2, y: y(value) - 2, width: 4, height: 4, fill: line.color,
                    tooltip: "\(line.name), \(steps[index]): \(ChartNumber.fixed(value, 2))")
                previous = (index, value)
            }
        }
        for (index, step) in steps.enumerated() where steps.count <= 13 || index % 2 == 0 {
            canvas.text(step, x: x(index), y: top + plotHeight + 16, anchor: "middle", size: 10)
        }
        canvas.text(xTitle, x: left + plotWidth / 2, y: height - 8, anchor: "middle", size: 12)
        canvas.text(yTitle, x: 14, y: top + plotHeight / 2, anchor: "middle", size: 12, rotation: -90)
        return canvas.rendered(label: label)
    }
}
