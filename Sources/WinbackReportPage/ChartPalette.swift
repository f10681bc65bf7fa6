/// Colours of the report page: the Okabe–Ito palette (distinguishable with the common colour-vision
/// deficiencies) for categories, and a single-hue blue ramp for the retention heatmap.
enum ChartPalette {
    /// Eight categorical colours; series beyond eight are folded into an "other" series by the callers.
    static let categorical = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999"]

    /// The colour of the `index`-th category (cycling, though callers keep at most eight).
    static func category(_ index: Int) -> String { categorical[index % categorical.count] }

    /// Lapse reasons in the churn and expiration charts, always with the same colour.
    static let reasons: [(column: String, label: String, color: String)] = [
        ("voluntary", "voluntary", "#0072B2"),
        ("price_increase", "price increase", "#E69F00"),
        ("billing_error", "billing error", "#D55E00"),
        ("billing_retry", "billing retry", "#CC79A7"),
        ("product_unavailable", "product unavailable", "#F0E442"),
        ("refund", "refund", "#000000"),
        ("returned", "returned later", "#56B4E9"),
        ("other_unknown", "other / unknown", "#999999"),
    ]

    /// The stack a lapse reason belongs to (`other` and `unknown` share one).
    static func reasonStack(_ reason: String) -> String {
        reason == "other" || reason == "unknown" ? "other_unknown" : reason
    }

    /// Heatmap fill for a rate in [0, 1]: light to dark blue, interpolated in sRGB.
    static func ramp(_ rate: Double) -> String {
        let stops: [(Double, Double, Double)] = [(247, 251, 255), (198, 219, 239), (107, 174, 214), (33, 113, 181), (8, 48, 107)]
        let clamped = min(1, max(0, rate)) * Double(stops.count - 1)
        let lower = min(stops.count - 2, Int(clamped))
        let t = clamped - Double(lower)
        let (a, b) = (stops[lower], stops[lower + 1])
        let channels = [a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t]
        let hex = Array("0123456789abcdef")
        return "#"
            + channels.map { value -> String in
                let byte = Int(value.rounded())
                return String([hex[byte / 16], hex[byte % 16]])
            }.joined()
    }
}
