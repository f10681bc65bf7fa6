/// The outlook's estimate of a renewal's probability (docs/renewal-outlook.md): the rate of renewal of the past
/// renewals in the row's segment, shrunk toward the rate of the broader segment it belongs to. A segment with
/// many past renewals speaks for itself; a sparse one borrows strength from the broader ones (a new product from
/// its offer and tenure, a product's first price increase from other products' price increases).
///
/// `p(segment) = (renewed + k · p(parent)) / (due + k)`, from everything down to the product (``RenewalSegment/level``),
/// with `k` = ``priorWeight``. The broadest state — auto-renew and billing — starts from a prior that says what
/// Apple's states mean when the past holds few of them: auto-renew off rarely renews, a billing retry recovers
/// about half the time.
///
/// Example: 1 000 past renewals renewed at 0.80; "on|none" renewed 760 of 900 (0.84…); a product with 3 of 4
/// in its segment gets `(3 + 20 · 0.84) / (4 + 20)` ≈ 0.83, not 0.75.
public struct RenewalEstimator: Sendable {
    /// The weight of a parent segment's rate, in past renewals.
    public static let priorWeight = 20.0
    /// The prior rate of each auto-renew and billing state, weighted like a parent.
    static func statePrior(autoRenew: Bool, billing: Bool, overall: Double) -> Double {
        switch (autoRenew, billing) {
        case (true, false): overall
        case (true, true): 0.45
        case (false, _): 0.05  // auto-renew off: renews only if the customer turns it back on
        }
    }

    /// Every segment's counts (``RenewalTally/expanded()``).
    private let counts: [RenewalSegment: RenewalTally.Counts]
    /// The rate over every past renewal (with one renewed and one not added, so an empty past gives 0.5).
    public let overall: Double

    /// The estimator fit on `tally`.
    public init(_ tally: RenewalTally) {
        counts = tally.expanded()
        let all = counts[RenewalSegment(level: 0)] ?? RenewalTally.Counts()
        overall = (Double(all.renewed) + 1) / (Double(all.due) + 2)
    }

    /// The renewal probability of `features`, in `[0, 1]`.
    public func probability(_ features: RenewalFeatures) -> Double {
        var rate = overall
        for level in UInt8(1)...5 {
            let parent =
                level == 1
                ? Self.statePrior(autoRenew: features.autoRenew, billing: features.billing != .none, overall: overall) : rate
            let segment = counts[RenewalSegment.of(features, level: level)] ?? RenewalTally.Counts()
            rate = (Double(segment.renewed) + Self.priorWeight * parent) / (Double(segment.due) + Self.priorWeight)
        }
        return rate
    }

    /// The product's average rate of renewal, shrunk toward ``overall`` (the baseline the outlook is measured against).
    public func productAverage(_ productId: String) -> Double {
        let product = counts[RenewalSegment.product(productId)] ?? RenewalTally.Counts()
        return (Double(product.renewed) + Self.priorWeight * overall) / (Double(product.due) + Self.priorWeight)
    }

    /// The one input that lowers `features`' probability most against its product's average (`main_factor`), or
    /// `nil` when its probability is not below that average or no input lowers it: for each input present, the
    /// probability with that input at its usual value (auto-renew on, no billing issue, a standard period, a
    /// mature tenure, no price increase), the largest gain naming the factor; `product` when the product's average
    /// is below the overall rate by more than any input costs.
    public func mainFactor(_ features: RenewalFeatures) -> MainFactor? {
        let probability = probability(features)
        let average = productAverage(features.productId)
        guard probability < average else { return nil }
        var best: (factor: MainFactor, gain: Double)?
        func consider(_ factor: MainFactor, _ changed: RenewalFeatures) {
            let gain = self.probability(changed) - probability
            if gain > 0, gain > (best?.gain ?? 0) { best = (factor, gain) }
        }
        var changed = features
        if !features.autoRenew {
            changed.autoRenew = true
            consider(.autoRenewOff, changed)
        }
        if features.billing != .none {
            changed = features
            changed.billing = .none
            consider(.billingRetry, changed)
        }
        if features.kind == .freeTrial || features.kind == .intro {
            changed = features
            changed.kind = .standard
            consider(features.kind == .freeTrial ? .freeTrialEnding : .introEnding, changed)
        }
        if features.priceIncreasePending {
            changed = features
            changed.priceIncreasePending = false
            consider(.priceIncreasePending, changed)
        }
        if features.tenureBucket < 6 {
            changed = features
            changed.renewalIndex = 12
            consider(.earlyTenure, changed)
        }
        let productGap = overall - average
        if productGap > 0, productGap > (best?.gain ?? 0) { best = (.product, productGap) }
        return best?.factor
    }

    /// The inputs `main_factor` names.
    public enum MainFactor: String, Sendable, CaseIterable {
        case autoRenewOff = "auto_renew_off"
        case billingRetry = "billing_retry"
        case freeTrialEnding = "free_trial_ending"
        case introEnding = "intro_ending"
        case priceIncreasePending = "price_increase_pending"
        case earlyTenure = "early_tenure"
        case product
    }
}
