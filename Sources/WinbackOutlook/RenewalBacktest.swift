import Foundation
import WinbackAppStore

/// How good the outlook was on the past (docs/renewal-outlook.md): the estimate refit on what was known at
/// `D − 35 days`, scored on the renewals that fell due in `(D − 35 days, D − 7 days]` (their outcomes known at
/// `D`), beside the product-average baseline on the same renewals.
public struct RenewalBacktest: Sendable, Equatable {
    /// One scored renewal: the outlook's probability, the baseline's, and whether it renewed.
    public struct Scored: Sendable, Equatable {
        /// The outlook's probability.
        public var predicted: Double
        /// The product-average baseline's.
        public var baseline: Double
        /// Whether it renewed.
        public var renewed: Bool

        /// A scored renewal from its parts.
        public init(predicted: Double, baseline: Double, renewed: Bool) {
            self.predicted = predicted
            self.baseline = baseline
            self.renewed = renewed
        }
    }

    /// One bin of the calibration: the scored renewals whose prediction falls in `[i/10, (i+1)/10)` (the last bin
    /// includes 1).
    public struct Bin: Sendable, Equatable {
        /// Scored renewals in the bin.
        public var count: Int
        /// The mean prediction in the bin; `nil` when empty.
        public var meanPredicted: Double?
        /// The share that renewed; `nil` when empty.
        public var observedRate: Double?

        /// A bin from its parts.
        public init(count: Int, meanPredicted: Double?, observedRate: Double?) {
            self.count = count
            self.meanPredicted = meanPredicted
            self.observedRate = observedRate
        }
    }

    /// Renewals scored.
    public var scored: Int
    /// Mean squared error of the predictions; `nil` without renewals.
    public var brier: Double?
    /// Mean negative log-likelihood (probabilities held in `[1e-6, 1 − 1e-6]`).
    public var logLoss: Double?
    /// Area under the ROC curve (ties count half); `nil` unless both outcomes occur.
    public var auc: Double?
    /// The baseline's Brier score.
    public var baselineBrier: Double?
    /// The baseline's AUC.
    public var baselineAuc: Double?
    /// Ten bins by the outlook's prediction.
    public var calibration: [Bin]
    /// Ten bins by the baseline's prediction (the page draws it beside the outlook's).
    public var baselineCalibration: [Bin]

    /// The measures of `scored`.
    public init(_ scored: [Scored]) {
        self.scored = scored.count
        let outcomes = scored.map { $0.renewed ? 1.0 : 0.0 }
        let predicted = scored.map(\.predicted)
        let baseline = scored.map(\.baseline)
        brier = Self.brier(predicted, outcomes)
        logLoss = Self.logLoss(predicted, outcomes)
        auc = Self.auc(predicted, outcomes)
        baselineBrier = Self.brier(baseline, outcomes)
        baselineAuc = Self.auc(baseline, outcomes)
        calibration = Self.bins(predicted, outcomes)
        baselineCalibration = Self.bins(baseline, outcomes)
    }

    static func brier(_ predicted: [Double], _ outcomes: [Double]) -> Double? {
        guard !predicted.isEmpty else { return nil }
        return zip(predicted, outcomes).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) } / Double(predicted.count)
    }

    static func logLoss(_ predicted: [Double], _ outcomes: [Double]) -> Double? {
        guard !predicted.isEmpty else { return nil }
        let total = zip(predicted, outcomes).reduce(0.0) { sum, pair in
            let p = min(max(pair.0, 1e-6), 1 - 1e-6)
            return sum - (pair.1 * Foundation.log(p) + (1 - pair.1) * Foundation.log(1 - p))
        }
        return total / Double(predicted.count)
    }

    /// The Mann–Whitney statistic over the ranks of the predictions (tied predictions share their mean rank).
    static func auc(_ predicted: [Double], _ outcomes: [Double]) -> Double? {
        let positives = outcomes.filter { $0 == 1 }.count
        let negatives = outcomes.count - positives
        guard positives > 0, negatives > 0 else { return nil }
        let order = predicted.indices.sorted { predicted[$0] < predicted[$1] }
        var rankSum = 0.0
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count, predicted[order[end + 1]] == predicted[order[start]] { end += 1 }
            let rank = Double(start + end) / 2 + 1
            for position in start...end where outcomes[order[position]] == 1 { rankSum += rank }
            start = end + 1
        }
        return (rankSum - Double(positives) * Double(positives + 1) / 2) / (Double(positives) * Double(negatives))
    }

    static func bins(_ predicted: [Double], _ outcomes: [Double]) -> [Bin] {
        var counts = [Int](repeating: 0, count: 10)
        var sums = [Double](repeating: 0, count: 10)
        var renewed = [Double](repeating: 0, count: 10)
        for (p, y) in zip(predicted, outcomes) {
            let bin = min(9, max(0, Int((p * 10).rounded(.down))))
            counts[bin] += 1
            sums[bin] += p
            renewed[bin] += y
        }
        return (0..<10).map { bin in
            counts[bin] == 0
                ? Bin(count: 0, meanPredicted: nil, observedRate: nil)
                : Bin(count: counts[bin], meanPredicted: sums[bin] / Double(counts[bin]), observedRate: renewed[bin] / Double(counts[bin]))
        }
    }

    /// `backtest` of `summary.json.gz`'s `renewalOutlook` (measures rounded to 6 decimals).
    public var json: JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map { .double(($0 * 1_000_000).rounded() / 1_000_000) } ?? .null }
        func bins(_ bins: [Bin]) -> JSONValue {
            JSONText.array(
                bins.map {
                    JSONText.object([
                        ("count", .integer(Int64($0.count))), ("meanPredicted", number($0.meanPredicted)),
                        ("observedRate", number($0.observedRate)),
                    ])
                })
        }
        return JSONText.object([
            ("scored", .integer(Int64(scored))), ("brier", number(brier)), ("logLoss", number(logLoss)), ("auc", number(auc)),
            ("baselineBrier", number(baselineBrier)), ("baselineAuc", number(baselineAuc)), ("calibration", bins(calibration)),
            ("baselineCalibration", bins(baselineCalibration)),
        ])
    }
}
