import WinbackAppStore

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
    /// A row: one offer's episodes.
    public struct Row: TableRow, Equatable {
        /// `offer_type`: Apple's raw `offerType`.
        public var offerType: Int64?
        /// `offer_identifier` (empty for introductory offers).
        public var offerIdentifier: String?
        /// `offer_discount_type`.
        public var offerDiscountType: String?
        /// `offer_period` (ISO 8601 duration).
        public var offerPeriod: String?
        /// `redemptions`: episodes.
        public var redemptions: Int
        /// `active_in_offer`.
        public var activeInOffer: Int
        /// `completed`.
        public var completed: Int
        /// `converted`.
        public var converted: Int
        /// `refunded`.
        public var refunded: Int

        /// A row from its values.
        public init(
            offerType: Int64?, offerIdentifier: String?, offerDiscountType: String?, offerPeriod: String?, redemptions: Int,
            activeInOffer: Int, completed: Int, converted: Int, refunded: Int
        ) {
            self.offerType = offerType
            self.offerIdentifier = offerIdentifier
            self.offerDiscountType = offerDiscountType
            self.offerPeriod = offerPeriod
            self.redemptions = redemptions
            self.activeInOffer = activeInOffer
            self.completed = completed
            self.converted = converted
            self.refunded = refunded
        }

        /// `conversion_rate`: ``converted`` over ``completed``, in millionths.
        public var conversionRate: Int64? { RateFormat.millionths(converted, completed) }

        /// Hands the row's values to `fields`, in the schema's column order.
        public func write(to fields: inout some RowFields) {
            fields.integer(offerType)
            fields.text(offerIdentifier)
            fields.text(offerDiscountType)
            fields.text(offerPeriod)
            for count in [redemptions, activeInOffer, completed, converted] { fields.integer(Int64(count)) }
            fields.rate(conversionRate)
            fields.integer(Int64(refunded))
        }
    }

    /// The rows for `timelines`.
    public static func rows(_ timelines: [SubscriptionTimeline]) -> [Row] { rows(tally(timelines)) }

    /// The counts of `timelines`, keyed `[offer type, identifier, discount type, period]`: `redemptions`,
    /// `active_in_offer`, `completed`, `converted`, `refunded` (docs/sharding.md).
    public static func tally(_ timelines: [SubscriptionTimeline]) -> TallyTable {
        var table = TallyTable()
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
                let identifier = type == OfferType.introductoryOffer.rawValue ? nil : first.offerIdentifier
                var counts: [Int64] = [1, 0, 0, 0, 0]
                if coveringAtEnd == last { counts[1] = 1 }
                let coverageEnd = timeline.coverage(last)?.upperBound ?? transactions[last].purchaseDate
                if coverageEnd < timeline.asOf {
                    counts[2] = 1
                    let lastPurchase = transactions[last].purchaseDate
                    let converts = transactions.indices.contains { candidate in
                        transactions[candidate].offerType == nil && !timeline.isRevoked(candidate)
                            && transactions[candidate].purchaseDate > lastPurchase
                    }
                    if converts { counts[3] = 1 }
                }
                if isRefunded { counts[4] = 1 }
                table.add([String(type), identifier, first.offerDiscountType, first.offerPeriod], counts)
                index = last + 1
            }
        }
        return table
    }

    /// The rows of `offer_usage.csv.gz` from a ``tally(_:)`` (or several, added), sorted by offer.
    public static func rows(_ tally: TallyTable) -> [Row] {
        let keys = tally.counts.keys.sorted { lhs, rhs in
            if lhs[0] != rhs[0] { return TextOrder.less(lhs[0].flatMap { Int32($0) }, rhs[0].flatMap { Int32($0) }) }
            if lhs[1] != rhs[1] { return TextOrder.less(lhs[1], rhs[1]) }
            if lhs[2] != rhs[2] { return TextOrder.less(lhs[2], rhs[2]) }
            return TextOrder.less(lhs[3], rhs[3])
        }
        return keys.map { key in
            let counts = (tally.counts[key] ?? []).map(Int.init)
            return Row(
                offerType: key[0].flatMap { Int64($0) }, offerIdentifier: key[1], offerDiscountType: key[2], offerPeriod: key[3],
                redemptions: counts[0],
                activeInOffer: counts[1], completed: counts[2], converted: counts[3], refunded: counts[4])
        }
    }
}
