import Foundation

/// The anytime-valid interval of a campaign's lift (docs/campaigns.md): an asymptotic confidence sequence
/// (Waudby-Smith, Arbour, Sinha, Kennedy, Ramdas, "Time-uniform central limit theory and asymptotic
/// confidence sequences", arXiv 2103.06476, eq. 9 for the half-width, 155 for the always-valid p-value,
/// 161 for the tuning).
///
/// A fixed 95 % interval is right for one look planned in advance; looked at every night it finds a lift
/// in about a third of campaigns that have none. The sequence is wider, and stays right however often it
/// is read: the chance that it *ever* excludes the true lift is at most α = 5 %.
///
/// With `n = n_T + n_H` accounts, `Δ = p_T − p_H`, `V = p_T(1 − p_T)/n_T + p_H(1 − p_H)/n_H` and
/// `ρ² = (−2 ln α + ln(1 − 2 ln α)) / plannedAccounts`:
/// `h = √(nV) · √( 2(nρ² + 1)/(n²ρ²) · ln(√(nρ² + 1)/α) )`, the interval `[max(−1, Δ − h), min(1, Δ + h)]`,
/// and `p = min(1, √(nρ² + 1) · exp(−ρ² n z² / (2(nρ² + 1))))` with `z = Δ/√V`.
///
/// Example: 56 of 70 treated and 48 of 80 held out converted, `plannedAccounts` 1000: Δ = 0.2,
/// V = 0.005286, h = 0.256707, so the sequence is −0.056707 to 0.456707 (the fixed interval: 0.052427 to
/// 0.333874) and p = 0.189320: not yet a measurable lift, though the fixed interval excludes zero.
public struct ConfidenceSequence: Sendable, Equatable {
    /// The lower bound (≥ −1).
    public var low: Double
    /// The upper bound (≤ 1).
    public var high: Double
    /// The always-valid p-value of "no lift" (≤ 1).
    public var pValue: Double

    /// The error rate the sequence is built for.
    public static let alpha = 0.05

    /// `ρ²` tuned so the sequence is narrowest at `plannedAccounts` accounts (eq. 161).
    public static func rhoSquared(plannedAccounts: Int) -> Double {
        let logAlpha = log(alpha)
        return (-2 * logAlpha + log(1 - 2 * logAlpha)) / Double(plannedAccounts)
    }

    /// The sequence after `treatmentConverted` of `treatmentAccounts` and `holdoutConverted` of
    /// `holdoutAccounts` converted; `nil` when a variant has no accounts or the variance is 0 (every rate 0 or 1).
    public init?(
        treatmentConverted: Int, of treatmentAccounts: Int, holdoutConverted: Int, of holdoutAccounts: Int, plannedAccounts: Int
    ) {
        guard treatmentAccounts > 0, holdoutAccounts > 0, plannedAccounts > 0 else { return nil }
        let nT = Double(treatmentAccounts)
        let nH = Double(holdoutAccounts)
        let pT = Double(treatmentConverted) / nT
        let pH = Double(holdoutConverted) / nH
        let variance = pT * (1 - pT) / nT + pH * (1 - pH) / nH
        guard variance > 0 else { return nil }
        let n = nT + nH
        let lift = pT - pH
        let rho2 = Self.rhoSquared(plannedAccounts: plannedAccounts)
        let scaled = n * rho2 + 1
        let halfWidth = (n * variance).squareRoot() * (2 * scaled / (n * n * rho2) * log(scaled.squareRoot() / Self.alpha)).squareRoot()
        low = max(-1, lift - halfWidth)
        high = min(1, lift + halfWidth)
        let z = lift / variance.squareRoot()
        pValue = min(1, scaled.squareRoot() * exp(-rho2 * n * z * z / (2 * scaled)))
    }
}
