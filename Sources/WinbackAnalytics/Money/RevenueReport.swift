/// `revenue_monthly` and `revenue_daily` (docs/money.md): per period, product (the transaction's) and currency,
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
        /// Counts from their values (all zero by default).
        public init(
            charges: Int = 0, gross: Int64 = 0, refunded: Int = 0, refunds: Int64 = 0, proceeds: Int64 = 0, unpriced: Int = 0,
            unconverted: Int = 0
        ) {
            self.charges = charges
            self.gross = gross
            self.refunded = refunded
            self.refunds = refunds
            self.proceeds = proceeds
            self.unpriced = unpriced
            self.unconverted = unconverted
        }

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
    /// Product and currency → period → counts.
    private var table: ProductCurrencyTable<Counts>

    /// An empty report over `periods`.
    public init(periods: [ReportPeriod]) {
        self.periods = periods
        table = ProductCurrencyTable(periodCount: periods.count, keepsPlan: false, empty: Counts())
    }

    /// The report over `periods` from the counters of a ``tally`` (or of several, added); cells of other periods
    /// are left out (docs/sharding.md).
    public init(periods: [ReportPeriod], tally: TallyTable) {
        self.init(periods: periods)
        table.add(tally, periods: periods) { values in
            guard values.count == 7 else { return nil }
            return Counts(
                charges: Int(values[0]), gross: values[1], refunded: Int(values[2]), refunds: values[3], proceeds: values[4],
                unpriced: Int(values[5]), unconverted: Int(values[6]))
        }
    }

    /// The counts of every non-zero cell, keyed `[period label, product, currency]`: `charges`, `gross`,
    /// `refunded`, `refunds`, `proceeds`, `unpriced`, `unconverted`.
    public var tally: TallyTable {
        table.tally(periods: periods, include: { !$0.isZero }) { counts in
            [
                Int64(counts.charges), counts.gross, Int64(counts.refunded), counts.refunds, counts.proceeds, Int64(counts.unpriced),
                Int64(counts.unconverted),
            ]
        }
    }

    /// Adds the events of `timeline` (``SubscriptionTimeline/moneyEvents(_:)`` through `context`).
    public mutating func add(_ events: [MoneyEvent], of timeline: SubscriptionTimeline, context: MoneyContext) {
        for event in events {
            guard let period = ReportPeriod.index(containing: event.instant, in: periods) else { continue }
            let slot = table.slot(of: timeline.transactions[event.transaction], context: context)
            switch event.kind {
            case .unpriced: table.cells[slot][period].unpriced += 1
            case .charge:
                table.cells[slot][period].charges += 1
                if let amount = event.amount, let proceeds = event.proceeds {
                    table.cells[slot][period].gross &+= amount
                    table.cells[slot][period].proceeds &+= proceeds
                }
            case .refund:
                table.cells[slot][period].refunded += 1
                if let amount = event.amount, let proceeds = event.proceeds {
                    table.cells[slot][period].refunds &+= amount
                    table.cells[slot][period].proceeds &-= proceeds
                }
            }
            if event.isUnconverted { table.cells[slot][period].unconverted += 1 }
        }
    }

    /// A row of `revenue_monthly` / `revenue_daily`: one period, product and currency.
    public struct Row: TableRow, Equatable {
        /// `month` or `day`.
        public var period: String
        /// `product_id`.
        public var productId: String
        /// `currency`: the reporting currency, else the transactions' own.
        public var currency: String?
        /// `charges` … `unconverted` (`net` is computed).
        public var counts: Counts

        /// A row from its values.
        public init(period: String, productId: String, currency: String?, counts: Counts) {
            self.period = period
            self.productId = productId
            self.currency = currency
            self.counts = counts
        }

        /// Hands the row's values to `fields`, in the schema's column order.
        public func write(to fields: inout some RowFields) {
            fields.period(label: period)
            fields.text(productId)
            fields.text(currency)
            fields.integer(Int64(counts.charges))
            fields.money(counts.gross)
            fields.integer(Int64(counts.refunded))
            fields.money(counts.refunds)
            fields.money(counts.net)
            fields.money(counts.proceeds)
            fields.integer(Int64(counts.unpriced))
            fields.integer(Int64(counts.unconverted))
        }
    }

    /// The rows (period, product, currency) with some non-zero count, sorted by key.
    public func rows() -> [Row] {
        var rows: [Row] = []
        let order = table.orderedSlots
        for (index, period) in periods.enumerated() {
            for slot in order where !table.cells[slot][index].isZero {
                rows.append(
                    Row(
                        period: period.label, productId: table.keys[slot].product.productId, currency: table.keys[slot].currency,
                        counts: table.cells[slot][index]))
            }
        }
        return rows
    }

    /// The totals of the period labelled `label` over every product and currency (one currency when a
    /// reporting currency is set).
    public func totals(period label: String) -> Counts {
        var total = Counts()
        guard let index = periods.firstIndex(where: { $0.label == label }) else { return total }
        for cells in table.cells { total.add(cells[index]) }
        return total
    }
}
