/// `expiration_reasons` (docs/analysts.md): non-family subscriptions whose status is `expired` or `revoked`, by the
/// latest transaction's product, the final lapse reason and `R`'s raw `expirationIntent`; `share` is the
/// count over all expired-or-revoked subscriptions of that product.
public enum ExpirationReasonsReport {
    /// The rows for `timelines`.
    public static func rows(_ timelines: [SubscriptionTimeline]) -> [[String?]] { rows(tally(timelines)) }

    /// The counts of `timelines`, keyed `[product, reason, intent]` (docs/sharding.md).
    public static func tally(_ timelines: [SubscriptionTimeline]) -> TallyTable {
        var table = TallyTable()
        for timeline in timelines where !timeline.isFamilyShared && (timeline.status == .expired || timeline.status == .revoked) {
            let intent = timeline.renewal?.expirationIntent.map(String.init)
            table.add([timeline.latest.productId, timeline.finalLapse?.reason.rawValue, intent], [1])
        }
        return table
    }

    /// The rows of `expiration_reasons.csv.gz` from a ``tally(_:)`` (or several, added), sorted by product then reason.
    public static func rows(_ tally: TallyTable) -> [[String?]] {
        var perProduct: [String: Int64] = [:]
        for (key, values) in tally.counts { perProduct[key[0] ?? "", default: 0] += values[0] }
        let sorted = tally.counts.keys.sorted { lhs, rhs in
            if lhs[0] != rhs[0] { return CodePointOrder.less(lhs[0] ?? "", rhs[0] ?? "") }
            if lhs[1] != rhs[1] { return TextOrder.less(lhs[1], rhs[1]) }
            return TextOrder.less(lhs[2].flatMap { Int32($0) }, rhs[2].flatMap { Int32($0) })
        }
        return sorted.map { key in
            let count = tally.counts[key]?[0] ?? 0
            return [key[0], key[1], key[2], String(count), RateFormat.format(Int(count), Int(perProduct[key[0] ?? ""] ?? 0))]
        }
    }
}
