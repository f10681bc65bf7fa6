/// `offer_usage` (docs/analysts.md) over non-family subscriptions. An offer episode is a maximal run of
/// consecutive transactions (by purchase date) carrying an `offerType` with equal (`offerType`,
/// `offerIdentifier`, `offerDiscountType`, `offerPeriod`).
///
/// - `redemptions`: episodes; `active_in_offer`: the episode's last transaction covers `T − 1 ms`;
/// - `completed`: its last transaction's coverage ended before `T`;
/// - `converted`: completed, and the subscription has a later (by purchase date), non-revoked transaction
///   without an offer; `conversion_rate = converted / completed`;
/// - `refunded`: episodes with a transaction revoked before `T`.
///
/// Example: a 1-week free trial followed by two paid renewals is one episode (type 1, FREE_TRIAL, P1W),
/// completed and converted; `offer_identifier` is empty for introductory offers.
public enum OfferUsageReport {
    struct Key: Hashable {
        var type: Int32
        var identifier: String?
        var discount: String?
        var period: String?
    }

    struct Counts {
        var redemptions = 0
        var active = 0
        var completed = 0
        var converted = 0
        var refunded = 0
    }

    /// The rows of `offer_usage.csv.gz`, sorted by offer.
    public static func rows(_ timelines: [SubscriptionTimeline]) -> [[String?]] {
        var table: [Key: Counts] = [:]
        for timeline in timelines where !timeline.isFamilyShared {
            let transactions = timeline.transactions
            let coveringAtEnd = timeline.covering(at: timeline.asOf - 1)
            var index = 0
            while index < transactions.count {
                guard let type = transactions[index].offerType else {
                    index += 1
                    continue
                }
                let first = transactions[index]
                var last = index
                var isRefunded = timeline.isRevoked(index)
                while last + 1 < transactions.count {
                    let next = transactions[last + 1]
                    guard next.offerType == type, next.offerIdentifier == first.offerIdentifier,
                        next.offerDiscountType == first.offerDiscountType, next.offerPeriod == first.offerPeriod
                    else { break }
                    last += 1
                    if timeline.isRevoked(last) { isRefunded = true }
                }
                let key = Key(
                    type: type, identifier: type == OfferType.introductoryOffer.rawValue ? nil : first.offerIdentifier,
                    discount: first.offerDiscountType, period: first.offerPeriod)
                var counts = table[key] ?? Counts()
                counts.redemptions += 1
                if coveringAtEnd == last { counts.active += 1 }
                let coverageEnd = timeline.coverage(last)?.upperBound ?? transactions[last].purchaseDate
                if coverageEnd < timeline.asOf {
                    counts.completed += 1
                    let lastPurchase = transactions[last].purchaseDate
                    let converts = transactions.indices.contains { candidate in
                        transactions[candidate].offerType == nil && !timeline.isRevoked(candidate)
                            && transactions[candidate].purchaseDate > lastPurchase
                    }
                    if converts { counts.converted += 1 }
                }
                if isRefunded { counts.refunded += 1 }
                table[key] = counts
                index = last + 1
            }
        }
        let keys = table.keys.sorted { lhs, rhs in
            if lhs.type != rhs.type { return lhs.type < rhs.type }
            if lhs.identifier != rhs.identifier { return TextOrder.less(lhs.identifier, rhs.identifier) }
            if lhs.discount != rhs.discount { return TextOrder.less(lhs.discount, rhs.discount) }
            return TextOrder.less(lhs.period, rhs.period)
        }
        return keys.map { key in
            let counts = table[key] ?? Counts()
            return [
                String(key.type), key.identifier, key.discount, key.period, String(counts.redemptions), String(counts.active),
                String(counts.completed), String(counts.converted), RateFormat.format(counts.converted, counts.completed),
                String(counts.refunded),
            ]
        }
    }
}
