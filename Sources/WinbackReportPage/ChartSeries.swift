/// One coloured series of a bar chart: a value per category (`nil` draws nothing, e.g. a rate with a zero
/// denominator).
struct ChartSeries {
    var name: String
    var color: String
    var values: [Double?]

    /// The legend of a chart as HTML: a swatch and the series name per series.
    static func legend(_ series: [ChartSeries]) -> String {
        "<ul class=\"legend\">"
            + series.map { "<li><span class=\"swatch\" style=\"background:\($0.color)\"></span>\(HTMLText.escape($0.name))</li>" }.joined()
            + "</ul>"
    }
}
