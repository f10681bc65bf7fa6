/// `mrr_monthly` (SPEC §11, §13): at `p1 − 1 ms` of each month (`p1` capped at `T`), the sales active paid
/// then, by the covering transaction's product, billing plan and row currency.
///
/// - `active_paid_end`: those subscriptions (as `active_end` of `churn_monthly`).
/// - `mrr_end`: the sum of their covering transactions' monthly prices (`price × 30.436875 days /
///   (expiresDate − purchaseDate)`, rounded once), converted at that day; `arppu = mrr_end / active_paid_end`.
/// - `unpriced_active`: covering transactions without price or currency, counted in `active_paid_end` but
///   not summed. A price without a rate that day is likewise left out of `mrr_end`.
///
/// Example: an annual plan of 59.99 bought on 2026-01-10 adds `59990 × 30.436875 / 365` = 5002 to
/// `mrr_end` of every month from January to December 2026.
public struct MRRReport: Sendable {
    /// The counts of one (month, product, plan, currency) cell.
    public struct Counts: Sendable, Equatable {
        /// Sales active paid at the month's last instant.
        public var activePaidEnd = 0
        /// Their monthly prices, milliunits of the row currency.
        public var mrrEnd: Int64 = 0
        /// Those whose covering transaction has no price or currency.
        public var unpricedActive = 0
    }

    /// The months, oldest first (the last ends at `T`).
    public let periods: [ReportPeriod]
    private var slots: [ProductCurrency: Int] = [:]
    private var keys: [ProductCurrency] = []
    private var cells: [[Counts]] = []
    /// The attributes looked up last and their slot (a subscription's transactions mostly share one).
    private var last: (attributes: TransactionAttributes, slot: Int)?

    /// The report over `periods` for the sales among `timelines`.
    public init(periods: [ReportPeriod], timelines: [SubscriptionTimeline], context: MoneyContext) {
        self.periods = periods
        for timeline in timelines where timeline.isSale { add(timeline, context: context) }
    }

    private mutating func add(_ timeline: SubscriptionTimeline, context: MoneyContext) {
        for position in 0..<timeline.segmentCount {
            let segment = timeline.segment(position)
            let transaction = timeline.transactions[segment.transaction]
            guard transaction.isPaid, segment.start < segment.end else { continue }
            // The months whose last instant p1 − 1 ms lies in [start, end): p1 in (start, end].
            var month = Self.firstPeriod(endingAfter: segment.start, in: periods)
            let stop = Self.firstPeriod(endingAfter: segment.end, in: periods)
            guard month < stop else { continue }
            let slot = slot(of: transaction, context: context)
            let monthly = transaction.price.flatMap {
                MoneyMath.monthlyPrice($0, duration: transaction.expiresDate - transaction.purchaseDate)
            }
            while month < stop {
                cells[slot][month].activePaidEnd += 1
                if let monthly, let currency = transaction.currency {
                    if let amount = context.convert(monthly, currency: currency, at: periods[month].end - 1) {
                        cells[slot][month].mrrEnd &+= amount
                    }
                } else {
                    cells[slot][month].unpricedActive += 1
                }
                month += 1
            }
        }
    }

    /// Index of the first period whose end is `> instant`.
    private static func firstPeriod(endingAfter instant: Int64, in periods: [ReportPeriod]) -> Int {
        var low = 0
        var high = periods.count
        while low < high {
            let middle = (low + high) / 2
            if periods[middle].end <= instant { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private mutating func slot(of transaction: SubscriptionTransaction, context: MoneyContext) -> Int {
        if let last, last.attributes === transaction.attributes { return last.slot }
        let key = ProductCurrency(product: ProductPlan(transaction), currency: context.rowCurrency(transaction.currency))
        let slot: Int
        if let known = slots[key] {
            slot = known
        } else {
            slot = keys.count
            slots[key] = slot
            keys.append(key)
            cells.append(Array(repeating: Counts(), count: periods.count))
        }
        last = (transaction.attributes, slot)
        return slot
    }

    /// The rows (month, product, plan, currency) with some active subscription, sorted by key.
    public func rows() -> [[String?]] {
        let order = keys.indices.sorted { ProductCurrency.precedes(keys[$0], keys[$1]) }
        var rows: [[String?]] = []
        for (index, period) in periods.enumerated() {
            for slot in order where cells[slot][index].activePaidEnd > 0 {
                let counts = cells[slot][index]
                rows.append([
                    period.label, keys[slot].product.productId, keys[slot].product.billingPlanType, keys[slot].currency,
                    String(counts.activePaidEnd), String(counts.mrrEnd),
                    String(MoneyMath.rounded(Int128(counts.mrrEnd), over: Int128(counts.activePaidEnd))), String(counts.unpricedActive),
                ])
            }
        }
        return rows
    }

    /// `mrr_end` of the month labelled `label` over every product, plan and currency.
    public func mrrEnd(period label: String) -> Int64 {
        guard let index = periods.firstIndex(where: { $0.label == label }) else { return 0 }
        return cells.reduce(0) { $0 &+ $1[index].mrrEnd }
    }
}
