/// `mrr_monthly` (docs/money.md): at `p1 − 1 ms` of each month (`p1` capped at `T`), the sales active paid
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

        /// Counts from their values (all zero by default).
        public init(activePaidEnd: Int = 0, mrrEnd: Int64 = 0, unpricedActive: Int = 0) {
            self.activePaidEnd = activePaidEnd
            self.mrrEnd = mrrEnd
            self.unpricedActive = unpricedActive
        }
    }

    /// A row of `mrr_monthly`: one month, product, plan and currency.
    public struct Row: TableRow, Equatable {
        /// `month`.
        public var month: String
        /// `product_id` and `billing_plan_type`.
        public var product: ProductPlan
        /// `currency`.
        public var currency: String?
        /// `active_paid_end`, `mrr_end`, `unpriced_active`.
        public var counts: Counts

        /// A row from its values.
        public init(month: String, product: ProductPlan, currency: String?, counts: Counts) {
            self.month = month
            self.product = product
            self.currency = currency
            self.counts = counts
        }

        /// `arppu`: `mrr_end / active_paid_end`, milliunits, rounded half away from zero.
        public var arppu: Int64 { MoneyMath.rounded(Int128(counts.mrrEnd), over: Int128(counts.activePaidEnd)) }

        /// Hands the row's values to `fields`, in the schema's column order.
        public func write(to fields: inout some RowFields) {
            fields.text(month)
            fields.text(product.productId)
            fields.text(product.billingPlanType)
            fields.text(currency)
            fields.integer(Int64(counts.activePaidEnd))
            fields.money(counts.mrrEnd)
            fields.money(arppu)
            fields.integer(Int64(counts.unpricedActive))
        }
    }

    /// The months, oldest first (the last ends at `T`).
    public let periods: [ReportPeriod]
    /// Product, plan and currency → month → counts.
    private var table: ProductCurrencyTable<Counts>

    /// The report over `periods` for the sales among `timelines`.
    public init(periods: [ReportPeriod], timelines: [SubscriptionTimeline], context: MoneyContext) {
        self.periods = periods
        table = ProductCurrencyTable(periodCount: periods.count, keepsPlan: true, empty: Counts())
        for timeline in timelines where timeline.isSale { add(timeline, context: context) }
    }

    /// The report over `periods` from the counters of a ``tally`` (or of several, added); cells of other periods
    /// are left out (docs/sharding.md).
    public init(periods: [ReportPeriod], tally: TallyTable) {
        self.periods = periods
        table = ProductCurrencyTable(periodCount: periods.count, keepsPlan: true, empty: Counts())
        table.add(tally, periods: periods) { values in
            values.count == 3 ? Counts(activePaidEnd: Int(values[0]), mrrEnd: values[1], unpricedActive: Int(values[2])) : nil
        }
    }

    /// The counts of every cell with an active subscription, keyed `[month label, product, plan, currency]`:
    /// `active_paid_end`, `mrr_end`, `unpriced_active`.
    public var tally: TallyTable {
        table.tally(periods: periods, include: { $0.activePaidEnd > 0 }) { counts in
            [Int64(counts.activePaidEnd), counts.mrrEnd, Int64(counts.unpricedActive)]
        }
    }

    private mutating func add(_ timeline: SubscriptionTimeline, context: MoneyContext) {
        for position in 0..<timeline.segmentCount {
            let segment = timeline.segment(position)
            let transaction = timeline.transactions[segment.transaction]
            guard transaction.isPaid, segment.start < segment.end else { continue }
            // The months whose last instant p1 − 1 ms lies in [start, end): p1 in (start, end].
            var month = ReportPeriod.firstIndex(endingAfter: segment.start, in: periods)
            let stop = ReportPeriod.firstIndex(endingAfter: segment.end, in: periods)
            guard month < stop else { continue }
            let slot = table.slot(of: transaction, context: context)
            let monthly = transaction.price.flatMap {
                MoneyMath.monthlyPrice($0, duration: transaction.expiresDate - transaction.purchaseDate)
            }
            while month < stop {
                table.cells[slot][month].activePaidEnd += 1
                if let monthly, let currency = transaction.currency {
                    if let amount = context.convert(monthly, currency: currency, at: periods[month].end - 1) {
                        table.cells[slot][month].mrrEnd &+= amount
                    }
                } else {
                    table.cells[slot][month].unpricedActive += 1
                }
                month += 1
            }
        }
    }

    /// The rows (month, product, plan, currency) with some active subscription, sorted by key.
    public func rows() -> [Row] {
        var rows: [Row] = []
        let order = table.orderedSlots
        for (index, period) in periods.enumerated() {
            for slot in order where table.cells[slot][index].activePaidEnd > 0 {
                rows.append(
                    Row(
                        month: period.label, product: table.keys[slot].product, currency: table.keys[slot].currency,
                        counts: table.cells[slot][index]))
            }
        }
        return rows
    }

    /// `mrr_end` of the month labelled `label` over every product, plan and currency.
    public func mrrEnd(period label: String) -> Int64 {
        guard let index = periods.firstIndex(where: { $0.label == label }) else { return 0 }
        return table.cells.reduce(0) { $0 &+ $1[index].mrrEnd }
    }
}
