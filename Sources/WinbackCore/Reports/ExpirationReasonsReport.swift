/// `expiration_reasons` (docs/analysts.md): non-family subscriptions whose status is `expired` or `revoked`, by the
/// latest transaction's product, the final lapse reason and `R`'s raw `expirationIntent`; `share` is the
/// count over all expired-or-revoked subscriptions of that product.
public enum ExpirationReasonsReport {
    /// The rows of `expiration_reasons.csv.gz`, sorted by product then reason.
    public static func rows(_ timelines: [SubscriptionTimeline]) -> [[String?]] {
        struct Key: Hashable {
            var product: String
            var reason: String?
            var intent: Int32?
        }
        var counts: [Key: Int] = [:]
        var perProduct: [String: Int] = [:]
        for timeline in timelines where !timeline.isFamilyShared && (timeline.status == .expired || timeline.status == .revoked) {
            let key = Key(
                product: timeline.latest.productId, reason: timeline.finalLapse?.reason.rawValue, intent: timeline.renewal?.expirationIntent
            )
            counts[key, default: 0] += 1
            perProduct[key.product, default: 0] += 1
        }
        let sorted = counts.keys.sorted { lhs, rhs in
            if lhs.product != rhs.product { return CodePointOrder.less(lhs.product, rhs.product) }
            if lhs.reason != rhs.reason { return TextOrder.less(lhs.reason, rhs.reason) }
            return TextOrder.less(lhs.intent, rhs.intent)
        }
        return sorted.map { key in
            let count = counts[key] ?? 0
            return [
                key.product, key.reason, key.intent.map(String.init), String(count), RateFormat.format(count, perProduct[key.product] ?? 0),
            ]
        }
    }
}
