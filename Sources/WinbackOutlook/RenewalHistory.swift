import WinbackAnalytics
import WinbackAppStore

/// One subscription's renewals as known at a cut instant (docs/renewal-outlook.md): the past renewals whose
/// outcome is known there (what the estimate is fit on), and the renewal coming next (a row). Only transactions
/// purchased before the cut count, a revocation only when it came before the cut, and — at a cut before `T` — the
/// renewal info only when it was signed before it: at `D − 35 days` the outlook sees what a run on that day saw.
public struct RenewalHistory {
    let timeline: SubscriptionTimeline
    let signals: RenewalSignals?
    let cut: Int64
    /// How long after its due date a renewal may still happen (billing retry and grace), ms.
    let window: Int64

    /// The end of every paid, unrevoked period known at the cut, ascending (``renewalIndex(endedBy:excluding:)``).
    private let paidEnds: [Int64]

    /// A renewal later than this after its due date went through billing retry.
    static let retryGap: Int64 = 6 * 3_600_000

    /// The history of `timeline` at `cut`, with `signals` (its notifications) and the resolution `window` (ms).
    public init(_ timeline: SubscriptionTimeline, signals: RenewalSignals?, cut: Int64, window: Int64) {
        self.timeline = timeline
        self.signals = signals
        self.cut = cut
        self.window = window
        // Fields read in place: a copy of a transaction retains its shared objects.
        var ends: [Int64] = []
        let transactions = timeline.transactions
        for index in transactions.indices {
            guard transactions[index].purchaseDate < cut else { break }
            guard transactions[index].isPaid else { continue }
            if let revoked = transactions[index].revocationDate, revoked < cut { continue }
            ends.append(transactions[index].expiresDate)
        }
        ends.sort()
        paidEnds = ends
    }

    /// The period's offer of `transaction`.
    public static func kind(_ transaction: SubscriptionTransaction) -> RenewalFeatures.PeriodKind {
        switch transaction.offerType {
        case 1?: transaction.offerDiscountType == OfferDiscountType.freeTrial.rawValue ? .freeTrial : .intro
        case 2?: .promotional
        case 3?: .offerCode
        case 4?: .winBack
        default: transaction.billingPlanType == "MONTHLY" ? .plan : .standard
        }
    }

    private func isKnown(_ index: Int) -> Bool { timeline.transactions[index].purchaseDate < cut }

    private func isRevoked(_ index: Int) -> Bool {
        guard let revoked = timeline.transactions[index].revocationDate else { return false }
        return revoked < cut
    }

    /// Paid periods, not revoked, that ended by `instant`, other than transaction `excluding` (-1: none).
    func renewalIndex(endedBy instant: Int64, excluding: Int) -> Int {
        var low = 0
        var high = paidEnds.count
        while low < high {
            let middle = (low + high) / 2
            if paidEnds[middle] <= instant { low = middle + 1 } else { high = middle }
        }
        guard excluding >= 0 else { return low }
        let transactions = timeline.transactions
        let counted =
            transactions[excluding].isPaid && transactions[excluding].expiresDate <= instant && !isRevoked(excluding)
            && isKnown(excluding)
        return low - (counted ? 1 : 0)
    }

    /// The renewal info as known at the cut: at `T`, the model's (as every report reads it); at an earlier cut, only
    /// when it was signed before it (the model keeps one version, the newest).
    private var renewal: RenewalState? {
        guard let renewal = timeline.renewal, cut >= timeline.asOf || renewal.signedDate < cut else { return nil }
        return renewal
    }

    /// Every past renewal whose outcome is known at the cut (its due date plus the window before it), with the
    /// features it had when it fell due and whether it happened; and, for a renewal that went through billing
    /// retry or a final lapse for a billing failure, one more at the billing state.
    public func pastRenewals(_ body: (RenewalFeatures, _ renewed: Bool) -> Void) {
        let transactions = timeline.transactions
        for index in transactions.indices {
            guard isKnown(index) else { break }
            let transaction = transactions[index]
            let due = transaction.expiresDate
            // An upgraded period counts too: the subscription went on (in the new product) before it ended.
            guard !isRevoked(index), due > transaction.purchaseDate, due + window <= cut else { continue }
            let next = nextPurchase(after: index)
            let renewed = next.map { $0 <= due + window } ?? false
            var autoRenew = signals?.autoRenew(before: due) ?? true
            let isFinal = next == nil
            // The renewal info says why the last period lapsed: the customer had turned auto-renew off, or billing failed.
            let intent = isFinal ? renewal?.expirationIntent : nil
            if intent == 1 { autoRenew = false }
            let features = RenewalFeatures(
                autoRenew: autoRenew, billing: .none, kind: Self.kind(transaction),
                renewalIndex: renewalIndex(endedBy: due - 1, excluding: index),
                priceIncreasePending: signals?.priceIncreasePending(before: due, since: transaction.purchaseDate) ?? false,
                productId: transaction.productId)
            body(features, renewed)
            let recovered = renewed && (next ?? due) - due > Self.retryGap
            if recovered || (!renewed && intent == 2) {
                var billing = features
                billing.billing = .retry
                billing.autoRenew = true
                body(billing, recovered)
            }
        }
    }

    /// The renewal coming next at the cut: the period running then (its due date is its `expiresDate`), or — with
    /// `isNow`, from the model's status — the billing retry or grace period the subscription is in (its due date
    /// is the `expiresDate` that lapsed). `nil` when the subscription cannot renew (expired, revoked).
    public func next(isNow: Bool) -> (features: RenewalFeatures, dueAt: Int64, transaction: Int)? {
        let transactions = timeline.transactions
        var current: Int?
        for index in transactions.indices {
            guard isKnown(index) else { break }
            let transaction = transactions[index]
            if !isRevoked(index), transaction.purchaseDate <= cut, cut < transaction.expiresDate { current = index }
        }
        let renewal = self.renewal
        if let index = current {
            let transaction = transactions[index]
            let autoRenew: Bool
            let priceIncrease: Bool
            if isNow, let renewal {
                autoRenew = renewal.effectiveAutoRenewStatus(latest: timeline.latest) != 0
                priceIncrease = renewal.priceIncreaseStatus == 0
            } else {
                autoRenew = signals?.autoRenew(before: cut) ?? true
                priceIncrease = signals?.priceIncreasePending(before: cut, since: transaction.purchaseDate) ?? false
            }
            let features = RenewalFeatures(
                autoRenew: autoRenew, billing: .none, kind: Self.kind(transaction),
                renewalIndex: renewalIndex(endedBy: cut, excluding: index), priceIncreasePending: priceIncrease,
                productId: transaction.productId)
            return (features, transaction.expiresDate, index)
        }
        guard isNow, timeline.status == .billingRetry || timeline.status == .billingGracePeriod else { return nil }
        let index = timeline.latestIndex
        let transaction = transactions[index]
        let features = RenewalFeatures(
            autoRenew: renewal?.effectiveAutoRenewStatus(latest: transaction).map { $0 != 0 } ?? true,
            billing: timeline.status == .billingGracePeriod ? .grace : .retry, kind: Self.kind(transaction),
            renewalIndex: renewalIndex(endedBy: cut, excluding: -1), priceIncreasePending: renewal?.priceIncreaseStatus == 0,
            productId: transaction.productId)
        return (features, transaction.expiresDate, index)
    }

    /// Whether the subscription renewed after its period `transaction`, by the cut: a later transaction was purchased.
    public func renewedAfter(_ transaction: Int) -> Bool { nextPurchase(after: transaction) != nil }

    /// When the first transaction purchased after `transaction` (and before the cut) was purchased: its renewal.
    private func nextPurchase(after transaction: Int) -> Int64? {
        let purchase = timeline.transactions[transaction].purchaseDate
        return timeline.transactions[(transaction + 1)...].first { $0.purchaseDate > purchase && $0.purchaseDate < cut }?.purchaseDate
    }
}
