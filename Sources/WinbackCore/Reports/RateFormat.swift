/// Rates as decimals with exactly 6 places, rounded half away from zero; empty for a zero denominator.
public enum RateFormat {
    /// `format(1, 3)` is `"0.333333"`, `format(2, 3)` is `"0.666667"`, `format(1, 0)` is `nil`.
    public static func format(_ numerator: Int, _ denominator: Int) -> String? {
        guard denominator != 0 else { return nil }
        let negative = (numerator < 0) != (denominator < 0)
        let n = Int64(abs(numerator))
        let d = Int64(abs(denominator))
        let scaled = (n * 2_000_000 + d) / (2 * d)
        let whole = scaled / 1_000_000
        let fraction = String(scaled % 1_000_000)
        let text = "\(whole).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
        return negative && scaled != 0 ? "-" + text : text
    }

    /// The rate as a JSON number-friendly Double (for the summary), `nil` for a zero denominator.
    public static func value(_ numerator: Int, _ denominator: Int) -> Double? {
        guard let text = format(numerator, denominator) else { return nil }
        return Double(text)
    }
}
