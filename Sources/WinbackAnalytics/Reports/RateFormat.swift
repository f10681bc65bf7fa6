/// Rates as decimals with exactly 6 places, rounded half away from zero; empty for a zero denominator.
public enum RateFormat {
    /// `format(1, 3)` is `"0.333333"`, `format(2, 3)` is `"0.666667"`, `format(1, 0)` is `nil`.
    public static func format(_ numerator: Int, _ denominator: Int) -> String? {
        format(Int128(numerator), over: Int128(denominator))
    }

    /// `numerator / denominator` with 6 decimals, rounded once half away from zero (an exact difference of
    /// two rates, whose numerator may be negative); `nil` for a zero denominator.
    public static func format(_ numerator: Int128, over denominator: Int128) -> String? {
        guard denominator != 0 else { return nil }
        let sign: Int128 = denominator < 0 ? -1 : 1
        return millionths(MoneyMath.rounded(numerator * 1_000_000 * sign, over: denominator * sign))
    }

    /// A computed real number (an interval bound) with 6 decimals, rounded half away from zero.
    public static func format(_ value: Double) -> String {
        millionths(Int64((value * 1_000_000).rounded(.toNearestOrAwayFromZero)))
    }

    /// `value / 10⁶` as text with exactly 6 decimals.
    private static func millionths(_ value: Int64) -> String {
        let magnitude = value.magnitude
        let fraction = String(magnitude % 1_000_000)
        let text = "\(magnitude / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
        return value < 0 ? "-" + text : text
    }

    /// The rate as a JSON number-friendly Double (for the summary), `nil` for a zero denominator.
    public static func value(_ numerator: Int, _ denominator: Int) -> Double? {
        guard let text = format(numerator, denominator) else { return nil }
        return Double(text)
    }
}
