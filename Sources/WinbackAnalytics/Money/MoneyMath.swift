/// Integer money arithmetic (docs/money.md): amounts are milliunits (`Int64`), every intermediate product is
/// exact (`Int128`), and each computation rounds once, at its end, half away from zero.
public enum MoneyMath {
    /// `numerator / denominator` rounded half away from zero; `denominator` must be positive.
    public static func rounded(_ numerator: Int128, over denominator: Int128) -> Int64 {
        precondition(denominator > 0)
        let magnitude = numerator.magnitude
        let divisor = denominator.magnitude
        var quotient = magnitude / divisor
        if (magnitude % divisor) * 2 >= divisor { quotient += 1 }
        let value = Int128(quotient)
        return Int64(clamping: numerator < 0 ? -value : value)
    }

    /// `amount × rate`, rounded once (a conversion into the reporting currency).
    public static func convert(_ amount: Int64, at rate: ExactDecimal) -> Int64 {
        rounded(Int128(amount) * Int128(rate.units), over: Int128(rate.denominator))
    }

    /// `amount × part / whole`, rounded once (a prorated refund: `price × revocationPercentage / 100000`).
    public static func proportion(_ amount: Int64, _ part: Int64, of whole: Int64) -> Int64 {
        rounded(Int128(amount) * Int128(part), over: Int128(whole))
    }

    /// Proceeds of `amount`: `amount / (1 + tax) × (1 − commission)`, rounded once.
    public static func proceeds(_ amount: Int64, tax: ExactDecimal, commission: ExactDecimal) -> Int64 {
        // amount × 10^ts × (10^cs − cu) / ((10^ts + tu) × 10^cs)
        let numerator = Int128(amount) * Int128(tax.denominator) * Int128(commission.denominator - commission.units)
        let denominator = Int128(tax.denominator + tax.units) * Int128(commission.denominator)
        return rounded(numerator, over: denominator)
    }

    /// Milliseconds in 30.436875 days (the average Gregorian month).
    public static let averageMonth: Int64 = 2_629_746_000

    /// The monthly price of a transaction costing `price` for `duration` ms: `price × 30.436875 days /
    /// duration`, rounded once; `nil` for a duration that is not positive.
    public static func monthlyPrice(_ price: Int64, duration: Int64) -> Int64? {
        guard duration > 0 else { return nil }
        return rounded(Int128(price) * Int128(averageMonth), over: Int128(duration))
    }
}
