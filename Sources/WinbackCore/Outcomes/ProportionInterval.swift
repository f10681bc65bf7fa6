/// Confidence intervals for proportions (docs/campaigns.md): Wilson's score interval for one proportion and
/// Newcombe's hybrid score interval for the difference of two (Newcombe 1998, method 10), the interval a
/// campaign's lift is reported with.
///
/// Worked example (Newcombe 1998, Table II, example (a)): 56 of 70 against 48 of 80, difference 0.2,
/// 95 % interval 0.0524 to 0.3339.
public enum ProportionInterval {
    /// The normal quantile of a two-sided 95 % interval.
    public static let z95 = 1.959963984540054

    /// Wilson's score interval of `successes` out of `trials`; `nil` when `trials` is 0. Exactly 0 as the
    /// lower bound of 0 of n and 1 as the upper bound of n of n.
    public static func wilson(_ successes: Int, of trials: Int, z: Double = z95) -> (low: Double, high: Double)? {
        guard trials > 0 else { return nil }
        let n = Double(trials)
        let p = Double(successes) / n
        let z2 = z * z
        let center = 2 * n * p + z2
        let spread = z * (z2 + 4 * n * p * (1 - p)).squareRoot()
        let denominator = 2 * (n + z2)
        let low = successes == 0 ? 0 : (center - spread) / denominator
        let high = successes == trials ? 1 : (center + spread) / denominator
        return (low, high)
    }

    /// Newcombe's hybrid score interval for `p1 − p2`, `p1 = x1 / n1` (treatment) and `p2 = x2 / n2`
    /// (holdout): `d − √((p1 − l1)² + (u2 − p2)²)` to `d + √((u1 − p1)² + (p2 − l2)²)` with Wilson bounds
    /// `l`, `u`; `nil` when either group is empty.
    public static func newcombe(_ x1: Int, of n1: Int, _ x2: Int, of n2: Int, z: Double = z95) -> (low: Double, high: Double)? {
        guard let (l1, u1) = wilson(x1, of: n1, z: z), let (l2, u2) = wilson(x2, of: n2, z: z) else { return nil }
        let p1 = Double(x1) / Double(n1)
        let p2 = Double(x2) / Double(n2)
        let d = p1 - p2
        let low = d - ((p1 - l1) * (p1 - l1) + (u2 - p2) * (u2 - p2)).squareRoot()
        let high = d + ((u1 - p1) * (u1 - p1) + (p2 - l2) * (p2 - l2)).squareRoot()
        return (low, high)
    }
}
