/// `revenue_monthly` and `revenue_daily` (SPEC §11): per period, product (the transaction's) and currency,
/// the charges and refunds dated in the period.
///
/// - `charges` / `gross`: charges dated in the period (at `purchaseDate`) and their amounts.
/// - `refunded` / `refunds`: refunds dated in the period (at `revocationDate`) and their amounts.
/// - `net = gross − refunds`; `proceeds` = the charges' proceeds − the refunds' proceeds.
/// - `unpriced`: transactions without price or currency; `unconverted`: charges and refunds without a
///   rate at their day. Both are counted (and in `charges` / `refunded`), never summed.
///
/// Example: a 9.99 USD monthly subscriber charged on Jan 5 and Feb 5 and refunded on Feb 20 gives January
/// `1, 9990, 0, 0, 9990, …` and February `1, 9990, 1, 9990, 0, …`.
public struct RevenueReport: Sendable {
    /// The counts and sums of one (period, product, currency) cell; money in milliunits.
    public struct Counts: Sendable, Equatable {
        /// Charges dated in the period.
        public var charges = 0
        /// Their amounts (converted ones only).
        public var gross: Int64 = 0
        /// Refunds dated in the period.
        public var refunded = 0
        /// Their amounts (converted ones only).
        public var refunds: Int64 = 0
        /// Charges' proceeds minus refunds' proceeds.
        public var proceeds: Int64 = 0
        /// Transactions without price or currency.
        public var unpriced = 0
        /// Charges and refunds without a rate.
        public var unconverted = 0

        /// `gross − refunds`.
        public var net: Int64 { gross &- refunds }
        var isZero: Bool { charges == 0 && refunded == 0 && unpriced == 0 && unconverted == 0 }

        /// Adds `other`'s counts and sums.
        public mutating func add(_ other: Counts) {
            charges += other.charges
            gross &+= other.gross
            refunded += other.refunded
            refunds &+= other.refunds
            proceeds &+= other.proceeds
            unpriced += other.unpriced
            unconverted += other.unconverted
        }
    }

    /// The report's periods, oldest first.
    public let periods: [ReportPeriod]
    private var slots: [ProductCurrency: Int] = [:]
    private var keys: [ProductCurrency] = []
    /// Slot → period → counts.
    private var cells: [[Counts]] = []
    /// The attributes looked up last, their row currency and slot.
    private var last: (attributes: TransactionAttributes, slot: Int)?

    /// An empty report over `periods`.
    public init(periods: [ReportPeriod]) {
        self.periods = periods
    }

    /// Adds the events of `timeline` (``SubscriptionTimeline/moneyEvents(_:)`` through `context`).
    public mutating func add(_ events: [MoneyEvent], of timeline: SubscriptionTimeline, context: MoneyContext) {
        for event in events {
            guard let period = ReportPeriod.index(containing: event.instant, in: periods) else { continue }
            let slot = slot(of: timeline.transactions[event.transaction], context: context)
            switch event.kind {
            case .unpriced: cells[slot][period].unpriced += 1
            case .charge:
                cells[slot][period].charges += 1
                if let amount = event.amount, let proceeds = event.proceeds {
                    cells[slot][period].gross &+= amount
                    cells[slot][period].proceeds &+= proceeds
                }
            case .refund:
                cells[slot][period].refunded += 1
                if let amount = event.amount, let proceeds = event.proceeds {
                    cells[slot][period].refunds &+= amount
                    cells[slot][period].proceeds &-= proceeds
                }
            }
            if event.isUnconverted { cells[slot][period].unconverted += 1 }
        }
    }

    private mutating func slot(of transaction: SubscriptionTransaction, context: MoneyContext) -> Int {
        // A subscription's transactions mostly share one interned attributes object.
        if let last, last.attributes === transaction.attributes { return last.slot }
        let key = ProductCurrency(
            product: ProductPlan(productId: transaction.productId, billingPlanType: nil),
            currency: context.rowCurrency(transaction.currency))
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

    /// The rows (period, product, currency) with some non-zero count, sorted by key.
    public func rows() -> [[String?]] {
        let order = keys.indices.sorted { ProductCurrency.precedes(keys[$0], keys[$1]) }
        var rows: [[String?]] = []
        for (index, period) in periods.enumerated() {
            for slot in order where !cells[slot][index].isZero {
                let counts = cells[slot][index]
                rows.append([
                    period.label, keys[slot].product.productId, keys[slot].currency, String(counts.charges), String(counts.gross),
                    String(counts.refunded), String(counts.refunds), String(counts.net), String(counts.proceeds), String(counts.unpriced),
                    String(counts.unconverted),
                ])
            }
        }
        return rows
    }

    /// The totals of the period labelled `label` over every product and currency (one currency when a
    /// reporting currency is set).
    public func totals(period label: String) -> Counts {
        var total = Counts()
        guard let index = periods.firstIndex(where: { $0.label == label }) else { return total }
        for slot in cells.indices { total.add(cells[slot][index]) }
        return total
    }
}
