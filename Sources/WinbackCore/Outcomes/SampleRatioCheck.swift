import Foundation

/// The split check of a campaign's cohort (docs/campaigns.md): are treatment and holdout in the proportion the
/// campaign configures? The holdout is a hash of the account key, so the split is a fair coin per account;
/// a tiny `p` means a defect in selection, cooldown or the ledger — not chance — and every lift of that
/// campaign is suspect until it is found.
///
/// `χ² = (n_H − nπ)²/(nπ) + (n_T − n(1 − π))²/(n(1 − π))` with `π = holdoutPercent / 100`, and
/// `p = erfc(√(χ²/2))` (one degree of freedom).
///
/// Example: 30 % holdout, 700 treated and 300 held out: χ² = 0, p = 1; 760 and 240: χ² = 17.14, p = 0.000035.
public enum SampleRatioCheck {
    /// A `p` below this is an alarm (`srmAlarms` in the summary, a warning, a banner on the page).
    public static let alarmThreshold = 0.001

    /// The p-value of the split, or `nil` when the holdout share is not strictly between 0 and 100 % or
    /// there are no accounts.
    public static func pValue(treatment: Int, holdout: Int, holdoutPercent: Double) -> Double? {
        let share = holdoutPercent / 100
        let n = Double(treatment + holdout)
        guard share > 0, share < 1, n > 0 else { return nil }
        let expectedHoldout = n * share
        let expectedTreatment = n * (1 - share)
        let chiSquared =
            (Double(holdout) - expectedHoldout) * (Double(holdout) - expectedHoldout) / expectedHoldout
            + (Double(treatment) - expectedTreatment) * (Double(treatment) - expectedTreatment) / expectedTreatment
        return erfc((chiSquared / 2).squareRoot())
    }
}
