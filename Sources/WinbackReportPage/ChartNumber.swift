import WinbackAnalytics

/// Number formatting and axis scales for the report page's charts (no Foundation formatters, so the page
/// is byte-identical on every machine).
enum ChartNumber {
    /// `value` with `decimals` places, rounded half away from zero: `fixed(12.345, 1)` is `"12.3"`.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        let whole = Int64(scaled / scale)
        var text = String(whole)
        if decimals > 0 {
            let fraction = String(Int64(scaled) - whole * Int64(scale))
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return value < 0 && scaled != 0 ? "-" + text : text
    }

    /// An integer with `,` between thousands: `grouped(1234567)` is `"1,234,567"`.
    static func grouped(_ value: Int) -> String {
        let digits = String(abs(value))
        var out = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return value < 0 ? "-" + out : out
    }

    /// A rate in [0, 1] as a percentage with one decimal: `percent(0.1234)` is `"12.3 %"`.
    static func percent(_ rate: Double) -> String { fixed(rate * 100, 1) + " %" }

    /// A rate in millionths as a percentage, or `"–"` when there is none.
    static func percent(millionths rate: Int64?) -> String {
        guard let rate else { return "–" }
        return percent(RateFormat.value(millionths: rate))
    }

    /// A rounded axis maximum at or above `value` and its tick step (1, 2, 2.5 or 5 × 10ⁿ, about four
    /// ticks); integer steps only when `isCount`.
    static func axis(maximum value: Double, isCount: Bool) -> (maximum: Double, step: Double) {
        guard value > 0 else { return (isCount ? 4 : 0.04, isCount ? 1 : 0.01) }
        let raw = value / 4
        var magnitude = 1.0
        while magnitude * 10 <= raw { magnitude *= 10 }
        while magnitude > raw { magnitude /= 10 }
        let residual = raw / magnitude
        var step = (residual <= 1 ? 1 : residual <= 2 ? 2 : residual <= 2.5 ? 2.5 : residual <= 5 ? 5 : 10) * magnitude
        if isCount { step = max(1, step.rounded(.up)) }
        return ((value / step).rounded(.up) * step, step)
    }
}
