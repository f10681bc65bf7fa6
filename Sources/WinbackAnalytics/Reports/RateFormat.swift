/// Rates as decimals with exactly 6 places, rounded half away from zero; empty for a zero denominator. A rate
/// travels as its millionths (an `Int64`), the value the CSV text and the Parquet `DECIMAL(18, 6)` both hold.
public enum RateFormat {
    /// `millionths(1, 3)` is 333 333, `millionths(2, 3)` is 666 667, `millionths(1, 0)` is `nil`.
    public static func millionths(_ numerator: Int, _ denominator: Int) -> Int64? {
        millionths(Int128(numerator), over: Int128(denominator))
    }

    /// `numerator / denominator` in millionths, rounded once half away from zero (an exact difference of two
    /// rates, whose numerator may be negative); `nil` for a zero denominator.
    public static func millionths(_ numerator: Int128, over denominator: Int128) -> Int64? {
        guard denominator != 0 else { return nil }
        let sign: Int128 = denominator < 0 ? -1 : 1
        return MoneyMath.rounded(numerator * 1_000_000 * sign, over: denominator * sign)
    }

    /// A computed real number (an interval bound) in millionths, rounded half away from zero.
    public static func millionths(_ value: Double) -> Int64 {
        Int64((value * 1_000_000).rounded(.toNearestOrAwayFromZero))
    }

    /// `format(1, 3)` is `"0.333333"`, `format(2, 3)` is `"0.666667"`, `format(1, 0)` is `nil`.
    public static func format(_ numerator: Int, _ denominator: Int) -> String? {
        millionths(numerator, denominator).map(text(millionths:))
    }

    /// A computed real number (an interval bound) with 6 decimals, rounded half away from zero.
    public static func format(_ value: Double) -> String {
        text(millionths: millionths(value))
    }

    /// `value / 10⁶` as text with exactly 6 decimals.
    public static func text(millionths value: Int64) -> String {
        let magnitude = value.magnitude
        let fraction = String(magnitude % 1_000_000)
        let text = "\(magnitude / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
        return value < 0 ? "-" + text : text
    }

    /// A rate in millionths as a Double (for the summary and the page).
    public static func value(millionths: Int64) -> Double {
        Double(millionths) / 1_000_000
    }

    /// The rate as a JSON number-friendly Double (for the summary), `nil` for a zero denominator.
    public static func value(_ numerator: Int, _ denominator: Int) -> Double? {
        millionths(numerator, denominator).map { value(millionths: $0) }
    }
}
