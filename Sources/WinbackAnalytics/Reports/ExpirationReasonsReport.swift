/// `expiration_reasons` (docs/analysts.md): non-family subscriptions whose status is `expired` or `revoked`, by the
/// latest transaction's product, the final lapse reason and `R`'s raw `expirationIntent`; `share` is the
/// count over all expired-or-revoked subscriptions of that product.
public enum ExpirationReasonsReport {
    /// A row: expired or revoked subscriptions of one product, lapse reason and expiration intent.
    public struct Row: TableRow, Equatable {
        /// `product_id`: the latest transaction's product.
        public var productId: String?
        /// `lapse_reason`: the final lapse's reason (``LapseReason`` raw value).
        public var lapseReason: String?
        /// `expiration_intent`: `R`'s raw `expirationIntent`.
        public var expirationIntent: Int64?
        /// `subscriptions`.
        public var subscriptions: Int
        /// Expired or revoked subscriptions of the product (`share`'s denominator).
        public var productSubscriptions: Int

        /// A row from its values.
        public init(productId: String?, lapseReason: String?, expirationIntent: Int64?, subscriptions: Int, productSubscriptions: Int) {
            self.productId = productId
            self.lapseReason = lapseReason
            self.expirationIntent = expirationIntent
            self.subscriptions = subscriptions
            self.productSubscriptions = productSubscriptions
        }

        /// `share`: ``subscriptions`` over ``productSubscriptions``, in millionths.
        public var share: Int64? { RateFormat.millionths(subscriptions, productSubscriptions) }

        /// Hands the row's values to `fields`, in the schema's column order.
        public func write(to fields: inout some RowFields) {
            fields.text(productId)
            fields.text(lapseReason)
            fields.integer(expirationIntent)
            fields.integer(Int64(subscriptions))
            fields.rate(share)
        }
    }

    /// The rows for `timelines`.
    public static func rows(_ timelines: [SubscriptionTimeline]) -> [Row] { rows(tally(timelines)) }

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
    public static func rows(_ tally: TallyTable) -> [Row] {
        var perProduct: [String: Int64] = [:]
        for (key, values) in tally.counts { perProduct[key[0] ?? "", default: 0] += values[0] }
        let sorted = tally.counts.keys.sorted { lhs, rhs in
            if lhs[0] != rhs[0] { return CodePointOrder.less(lhs[0] ?? "", rhs[0] ?? "") }
            if lhs[1] != rhs[1] { return TextOrder.less(lhs[1], rhs[1]) }
            return TextOrder.less(lhs[2].flatMap { Int32($0) }, rhs[2].flatMap { Int32($0) })
        }
        return sorted.map { key in
            Row(
                productId: key[0], lapseReason: key[1], expirationIntent: key[2].flatMap { Int64($0) },
                subscriptions: Int(tally.counts[key]?[0] ?? 0),
                productSubscriptions: Int(perProduct[key[0] ?? ""] ?? 0))
        }
    }
}
