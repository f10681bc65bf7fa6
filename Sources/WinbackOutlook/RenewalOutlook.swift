import WinbackAnalytics
import WinbackAppStore

/// Who is about to leave (docs/renewal-outlook.md): what one machine's model (or one shard's) contributes to the
/// outlook, and the outlook's figures. The contribution is additive — past renewals counted per segment at `T`
/// and at `D − 35 days`, the product prices, the backtest's renewals with their features — so shards' parts sum
/// to one machine's and the merge fits the same estimate; each subscription's row facts are streamed apart.
public struct RenewalOutlook: Sendable {
    /// The backtest refits at `T − 35 days` …
    public static let backtestDays: Int64 = 35
    /// … and scores the renewals due before `T − 7 days` (on `D − 7` at the latest).
    public static let backtestHorizonDays: Int64 = 7

    /// One renewal the backtest scores: its features at `D − 35 days` and whether it happened by `D`.
    public struct ScoredRenewal: Sendable, Equatable {
        /// Its features at `D − 35 days`.
        public var features: RenewalFeatures
        /// Whether it renewed by `D`.
        public var renewed: Bool
    }

    /// Past renewals per segment, known at `T`.
    public var tally = RenewalTally()
    /// Past renewals per segment, known at `T − 35 days`.
    public var backtestTally = RenewalTally()
    /// Standard prices, known at `T`.
    public var prices = RenewalPrices()
    /// The renewals due on the days `(D − 35, D − 7]` (in `[T − 35 days, T − 7 days)`) with their features then.
    public var scoring: [ScoredRenewal] = []

    /// An empty part.
    public init() {}

    /// The part of `model` (its `T` is `asOf`), handing each row's facts to `facts` in timeline order.
    /// `graceDays` is how long a renewal may still happen after it fell due (`report.gracePeriodDays`).
    public static func part(_ model: SubscriptionModel, graceDays: Int, facts: (RenewalFacts) throws -> Void) rethrows -> RenewalOutlook {
        let asOf = model.asOf
        let window = Int64(graceDays) * InstantFormat.day
        let backtestCut = asOf - backtestDays * InstantFormat.day
        let horizon = asOf - backtestHorizonDays * InstantFormat.day
        let signals = RenewalSignals.of(model.notificationEvents, before: asOf)
        let backtestSignals = RenewalSignals.of(model.notificationEvents, before: backtestCut)
        var part = RenewalOutlook()
        for timeline in model.timelines {
            let id = CompactIdentifier(timeline.originalTransactionId)
            let now = RenewalHistory(timeline, signals: signals[id], cut: asOf, window: window)
            now.pastRenewals { part.tally.add($0, renewed: $1) }
            part.prices.add(timeline, before: asOf)
            if let row = RenewalFacts.of(timeline, signals: signals[id], window: window) { try facts(row) }
            let then = RenewalHistory(timeline, signals: backtestSignals[id], cut: backtestCut, window: window)
            then.pastRenewals { part.backtestTally.add($0, renewed: $1) }
            // Due on the days `D − 34` … `D − 7`: at or after the cut (a period running then ends after it), before `T − 7 days`.
            if let (features, dueAt, index) = then.next(isNow: false), dueAt < horizon {
                part.scoring.append(ScoredRenewal(features: features, renewed: now.renewedAfter(index)))
            }
        }
        return part
    }

    /// Adds another part (a shard's).
    public mutating func add(_ other: RenewalOutlook) {
        tally.add(other.tally)
        backtestTally.add(other.backtestTally)
        prices.add(other.prices)
        scoring += other.scoring
    }

    /// The estimate the rows use.
    public var estimator: RenewalEstimator { RenewalEstimator(tally) }

    /// The backtest: the estimate refit at `T − 35 days` on the scored renewals, beside the product-average baseline.
    public var backtest: RenewalBacktest {
        let estimator = RenewalEstimator(backtestTally)
        // In one order whatever the shards' order, so the sums are the same to the last bit.
        let ordered = scoring.map { (key: JSONText.render($0.features.json) + ($0.renewed ? "1" : "0"), scored: $0) }
            .sorted { CodePointOrder.less($0.key, $1.key) }.map(\.scored)
        return RenewalBacktest(
            ordered.map {
                RenewalBacktest.Scored(
                    predicted: estimator.probability($0.features), baseline: estimator.productAverage($0.features.productId),
                    renewed: $0.renewed)
            })
    }
}
