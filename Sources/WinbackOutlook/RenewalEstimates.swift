/// The estimator's answers remembered while one run writes its rows (docs/renewal-outlook.md): a row asks for its
/// own probability, its main factor and the probability of each later renewal of the year, and rows share few
/// distinct features, so each is computed once. One per run, on one thread (not shared).
public final class RenewalEstimates {
    /// The estimate.
    public let estimator: RenewalEstimator
    private var probabilities: [RenewalFeatures: Double] = [:]
    private var factors: [RenewalFeatures: RenewalEstimator.MainFactor?] = [:]

    /// Answers of `estimator`.
    public init(_ estimator: RenewalEstimator) {
        self.estimator = estimator
    }

    /// ``RenewalEstimator/probability(_:)``.
    public func probability(_ features: RenewalFeatures) -> Double {
        if let known = probabilities[features] { return known }
        let computed = estimator.probability(features)
        probabilities[features] = computed
        return computed
    }

    /// ``RenewalEstimator/mainFactor(_:)``.
    public func mainFactor(_ features: RenewalFeatures) -> RenewalEstimator.MainFactor? {
        if let known = factors[features] { return known }
        let computed = estimator.mainFactor(features)
        factors[features] = computed
        return computed
    }
}
