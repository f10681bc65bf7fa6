/// Apple's commission (`report.commission`, docs/money.md): `rate` of a sale, `reducedRate` once the
/// subscriber has `reducedAfterServiceDays` days of paid service (Apple's rule for the second year).
public struct Commission: Sendable, Equatable {
    /// The commission share of a sale before tax, e.g. 0.30 (0.15 in the Small Business Program).
    public var rate: ExactDecimal
    /// The share once the subscriber has enough paid service days, e.g. 0.15.
    public var reducedRate: ExactDecimal
    /// Paid service days from which `reducedRate` applies (365).
    public var reducedAfterServiceDays: Int64

    /// Apple's standard terms: 30 %, 15 % after a year of paid service.
    public static let standard = Commission(
        rate: ExactDecimal(units: 30, scale: 2), reducedRate: ExactDecimal(units: 15, scale: 2), reducedAfterServiceDays: 365)

    /// Terms from their parts.
    public init(rate: ExactDecimal, reducedRate: ExactDecimal, reducedAfterServiceDays: Int64) {
        self.rate = rate
        self.reducedRate = reducedRate
        self.reducedAfterServiceDays = reducedAfterServiceDays
    }

    /// The share of a charge whose subscriber had `serviceDays` of paid service at its purchase.
    public func rate(serviceDays: Int64) -> ExactDecimal { serviceDays >= reducedAfterServiceDays ? reducedRate : rate }
}
