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

    /// Past renewals per segment, known at `T`.
    public var tally = RenewalTally()
    /// Past renewals per segment, known at `T − 35 days`.
    public var backtestTally = RenewalTally()
    /// Standard prices, known at `T`.
    public var prices = RenewalPrices()
    /// The renewals due on the days `(D − 35, D − 7]` (in `[T − 35 days, T − 7 days)`) with their features then.
    /// Grouped by those features (the estimate gives each group one probability): how many fell due, how many renewed.
    public var scoring: [RenewalFeatures: RenewalTally.Counts] = [:]

    /// An empty part.
    public init() {}

    /// What every part of one model reads (docs/renewal-outlook.md): its `T`, how long a renewal may still happen
    /// after it fell due, and the notifications' signals known at `T` and at the backtest's cut.
    public struct Scope: Sendable {
        let asOf: Int64
        let window: Int64
        let signals: [CompactIdentifier: RenewalSignals]
        let backtestSignals: [CompactIdentifier: RenewalSignals]

        /// The scope of `model` (its `T` is `asOf`); `graceDays` is `report.gracePeriodDays`.
        public init(_ model: SubscriptionModel, graceDays: Int) {
            asOf = model.asOf
            window = Int64(graceDays) * InstantFormat.day
            signals = RenewalSignals.of(model.notificationEvents, before: asOf)
            backtestSignals = RenewalSignals.of(model.notificationEvents, before: asOf - RenewalOutlook.backtestDays * InstantFormat.day)
        }
    }

    /// The part of `model` (its `T` is `asOf`), handing each row's facts to `facts` in timeline order.
    /// `graceDays` is how long a renewal may still happen after it fell due (`report.gracePeriodDays`).
    public static func part(_ model: SubscriptionModel, graceDays: Int, facts: (RenewalFacts) throws -> Void) rethrows -> RenewalOutlook {
        try part(model.timelines[...], Scope(model, graceDays: graceDays), facts: facts)
    }

    /// The part of some of a model's `timelines` (parts of consecutive slices add up to the whole model's), handing
    /// each row's facts to `facts` in timeline order.
    public static func part(
        _ timelines: ArraySlice<SubscriptionTimeline>, _ scope: Scope, facts: (RenewalFacts) throws -> Void
    ) rethrows -> RenewalOutlook {
        let (asOf, window, signals, backtestSignals) = (scope.asOf, scope.window, scope.signals, scope.backtestSignals)
        let backtestCut = asOf - backtestDays * InstantFormat.day
        let horizon = asOf - backtestHorizonDays * InstantFormat.day
        var part = RenewalOutlook()
        // A subscription's past renewals fall in a few segments: counted here first, then added to the tally once each.
        var local: [(segment: RenewalSegment, counts: RenewalTally.Counts)] = []
        func count(_ features: RenewalFeatures, _ renewed: Bool) {
            let segment = RenewalSegment.of(features, level: 5)
            if let index = local.firstIndex(where: { $0.segment == segment }) {
                local[index].counts.add(renewed: renewed)
            } else {
                local.append((segment, RenewalTally.Counts(due: 1, renewed: renewed ? 1 : 0)))
            }
        }
        for timeline in timelines {
            // Most subscriptions have no signal: the lookup is skipped when there is none at all.
            let id = signals.isEmpty ? nil : CompactIdentifier(timeline.originalTransactionId)
            let now = RenewalHistory(timeline, signals: id.flatMap { signals[$0] }, cut: asOf, window: window)
            now.pastRenewals(count)
            for entry in local { part.tally.add(entry.segment, entry.counts) }
            local.removeAll(keepingCapacity: true)
            part.prices.add(timeline, before: asOf)
            if let row = RenewalFacts.of(timeline, history: now) { try facts(row) }
            // A subscription that began after the backtest's cut has nothing to say about it.
            guard timeline.transactions[0].purchaseDate < backtestCut else { continue }
            let then = RenewalHistory(timeline, signals: id.flatMap { backtestSignals[$0] }, cut: backtestCut, window: window)
            then.pastRenewals(count)
            for entry in local { part.backtestTally.add(entry.segment, entry.counts) }
            local.removeAll(keepingCapacity: true)
            // Due on the days `D − 34` … `D − 7`: at or after the cut (a period running then ends after it), before `T − 7 days`.
            guard timeline.transactions[timeline.latestIndex].expiresDate > backtestCut else { continue }
            if let (features, dueAt, index) = then.next(isNow: false), dueAt < horizon {
                part.scoring[features, default: RenewalTally.Counts()].add(renewed: now.renewedAfter(index))
            }
        }
        return part
    }

    /// Adds another part (a shard's).
    public mutating func add(_ other: RenewalOutlook) {
        tally.add(other.tally)
        backtestTally.add(other.backtestTally)
        prices.add(other.prices)
        for (features, counts) in other.scoring {
            scoring[features, default: RenewalTally.Counts()].due += counts.due
            scoring[features, default: RenewalTally.Counts()].renewed += counts.renewed
        }
    }

    /// The estimate the rows use.
    public var estimator: RenewalEstimator { RenewalEstimator(tally) }

    /// The backtest: the estimate refit at `T − 35 days` on the scored renewals, beside the product-average baseline.
    public var backtest: RenewalBacktest {
        let estimator = RenewalEstimator(backtestTally)
        // In one order whatever the shards' order, so the sums are the same to the last bit.
        let groups = scoring.map { (key: JSONText.render($0.key.json), features: $0.key, counts: $0.value) }
            .sorted { CodePointOrder.less($0.key, $1.key) }
        var scored: [RenewalBacktest.Scored] = []
        for group in groups {
            let predicted = estimator.probability(group.features)
            let baseline = estimator.productAverage(group.features.productId)
            for index in 0..<group.counts.due {
                scored.append(RenewalBacktest.Scored(predicted: predicted, baseline: baseline, renewed: index < group.counts.renewed))
            }
        }
        return RenewalBacktest(scored)
    }
}
