/// `churn_monthly` and `churn_daily` (docs/analysts.md): per period `P = [p0, p1)` (p1 capped at `T`) and
/// product with billing plan (``ProductPlan``, of the transaction that decides the product), over
/// non-family subscriptions.
///
/// - `active_start` / `active_end`: subscriptions active paid at `p0` / at `p1 − 1 ms`, by the covering
///   transaction's product.
/// - `churned`: lapses at `L ∈ P` whose last covering transaction `Y` is paid, by `Y`'s product, split by
///   reason (`churned_returned` are lapses that later came back).
/// - `new` / `reactivated`: first / later spans starting in `P`, by the product of the span's first transaction.
/// - `churn_rate = churned / active_start`, empty when `active_start = 0`.
///
/// Example: a monthly subscriber paying from Jan 10 who cancels (intent 1) with coverage ending Mar 10
/// counts in `new` for January, in `active_start` and `active_end` for February, in `active_start` and
/// `churned_voluntary` for March.
public struct ChurnReport: Sendable {
    /// Counts of one (period, product and plan) cell.
    public struct Counts: Sendable, Equatable {
        /// Paid subscriptions active at the period's start.
        public var activeStart = 0
        /// Paid subscriptions active at the period's end.
        public var activeEnd = 0
        /// Subscriptions whose first paid coverage started in the period.
        public var new = 0
        /// Spans that started in the period after an earlier lapse.
        public var reactivated = 0
        /// Lapses in the period whose last covering transaction is paid.
        public var churned = 0
        /// `churned` split by lapse reason.
        public var byReason: [LapseReason: Int] = [:]

        /// Counts from their values (all zero by default).
        public init(
            activeStart: Int = 0, activeEnd: Int = 0, new: Int = 0, reactivated: Int = 0, churned: Int = 0,
            byReason: [LapseReason: Int] = [:]
        ) {
            self.activeStart = activeStart
            self.activeEnd = activeEnd
            self.new = new
            self.reactivated = reactivated
            self.churned = churned
            self.byReason = byReason
        }

        var isZero: Bool { activeStart == 0 && activeEnd == 0 && new == 0 && reactivated == 0 && churned == 0 }
    }

    /// A row of `churn_monthly` / `churn_daily`: one period, product and billing plan.
    public struct Row: TableRow, Equatable {
        /// `month` (`YYYY-MM`) or `day` (`YYYY-MM-DD`).
        public var period: String
        /// `product_id` and `billing_plan_type`.
        public var product: ProductPlan
        /// `subscription_group_id`, when known.
        public var subscriptionGroupId: String?
        /// `active_start` … `churned_returned`.
        public var counts: Counts

        /// A row from its values.
        public init(period: String, product: ProductPlan, subscriptionGroupId: String?, counts: Counts) {
            self.period = period
            self.product = product
            self.subscriptionGroupId = subscriptionGroupId
            self.counts = counts
        }

        /// `churn_rate`: `churned` over `active_start`, in millionths.
        public var churnRate: Int64? { RateFormat.millionths(counts.churned, counts.activeStart) }

        /// Hands the row's values to `fields`, in the schema's column order.
        public func write(to fields: inout some RowFields) {
            fields.period(label: period)
            fields.text(product.productId)
            fields.text(product.billingPlanType)
            fields.text(subscriptionGroupId)
            for count in [counts.activeStart, counts.activeEnd, counts.new, counts.reactivated, counts.churned] {
                fields.integer(Int64(count))
            }
            for reason in ChurnReport.reasonColumns { fields.integer(Int64(counts.byReason[reason] ?? 0)) }
            fields.rate(churnRate)
        }
    }

    /// The report's periods, oldest first.
    public let periods: [ReportPeriod]
    /// Period index → product and plan → counts.
    public private(set) var cells: [[ProductPlan: Counts]]

    /// Column order of the reasons after `churned`.
    public static let reasonColumns: [LapseReason] = [
        .voluntary, .priceIncrease, .billingError, .billingRetry, .productUnavailable, .other, .unknown, .refund, .returned,
    ]

    /// Counts `timelines` (Family Sharing ones skipped) into `periods`.
    public init(periods: [ReportPeriod], timelines: [SubscriptionTimeline]) {
        self.periods = periods
        var tally = Tally(periods: periods)
        for timeline in timelines where !timeline.isFamilyShared { tally.add(timeline) }
        self.cells = tally.cells()
    }

    /// The report over `periods` from the counters of a ``tally`` (or of several, added): cells of
    /// periods not in `periods` are left out (docs/sharding.md).
    public init(periods: [ReportPeriod], tally: TallyTable) {
        self.periods = periods
        var cells = Array(repeating: [ProductPlan: Counts](), count: periods.count)
        let index = Dictionary(uniqueKeysWithValues: periods.enumerated().map { ($1.label, $0) })
        let reasons = LapseReason.allCases
        for (key, values) in tally.counts {
            guard key.count == 3, let label = key[0], let period = index[label], let productId = key[1], values.count == 5 + reasons.count
            else { continue }
            var counts = Counts()
            counts.activeStart = Int(values[0])
            counts.activeEnd = Int(values[1])
            counts.new = Int(values[2])
            counts.reactivated = Int(values[3])
            counts.churned = Int(values[4])
            for (offset, reason) in reasons.enumerated() where values[5 + offset] > 0 { counts.byReason[reason] = Int(values[5 + offset]) }
            cells[period][ProductPlan(productId: productId, billingPlanType: key[2])] = counts
        }
        self.cells = cells
    }

    /// The counts of every non-zero cell, keyed `[period label, product, plan]`: `active_start`, `active_end`,
    /// `new`, `reactivated`, `churned`, then the reasons in ``LapseReason/allCases`` order.
    public var tally: TallyTable {
        var table = TallyTable()
        for (index, period) in periods.enumerated() {
            for (product, counts) in cells[index] where !counts.isZero {
                let values =
                    [counts.activeStart, counts.activeEnd, counts.new, counts.reactivated, counts.churned]
                    + LapseReason.allCases.map { counts.byReason[$0] ?? 0 }
                table.add([period.label, product.productId, product.billingPlanType], values.map(Int64.init))
            }
        }
        return table
    }

    /// Index of the period containing `instant`, if any.
    public func period(containing instant: Int64) -> Int? { Tally.period(containing: instant, in: periods) }

    /// The counts while timelines are added, dense by product (with plan) and period: a paid segment adds 1 to
    /// `active_start` of every period starting inside it, recorded as +1/−1 at the ends of that run of
    /// periods and summed once at the end, so a segment costs the same whatever the number of periods
    /// (90 days, or months) it spans.
    private struct Tally {
        let periods: [ReportPeriod]
        var productIndex: [ProductPlan: Int] = [:]
        var products: [ProductPlan] = []
        /// The attributes looked up last and the index of their product and plan.
        private var lastAttributes: (attributes: TransactionAttributes, index: Int)?
        /// Product → period → count (the deltas have one more slot, for the end of the last run).
        var activeStartDeltas: [[Int]] = []
        var activeEndDeltas: [[Int]] = []
        var new: [[Int]] = []
        var reactivated: [[Int]] = []
        var churned: [[Int]] = []
        /// Product → period × reason (``LapseReason/allCases`` order) → count.
        var reasons: [[Int]] = []

        init(periods: [ReportPeriod]) { self.periods = periods }

        static func period(containing instant: Int64, in periods: [ReportPeriod]) -> Int? {
            ReportPeriod.index(containing: instant, in: periods)
        }

        /// The slot of `transaction`'s product and plan.
        mutating func index(of transaction: SubscriptionTransaction) -> Int {
            // A subscription's transactions mostly share one interned attributes object.
            if let last = lastAttributes, last.attributes === transaction.attributes { return last.index }
            let product = ProductPlan(transaction)
            let index = productIndex[product] ?? addProduct(product)
            lastAttributes = (transaction.attributes, index)
            return index
        }

        private mutating func addProduct(_ product: ProductPlan) -> Int {
            let index = products.count
            productIndex[product] = index
            products.append(product)
            activeStartDeltas.append(Array(repeating: 0, count: periods.count + 1))
            activeEndDeltas.append(Array(repeating: 0, count: periods.count + 1))
            for table in [\Tally.new, \.reactivated, \.churned] { self[keyPath: table].append(Array(repeating: 0, count: periods.count)) }
            reasons.append(Array(repeating: 0, count: periods.count * LapseReason.allCases.count))
            return index
        }

        mutating func add(_ timeline: SubscriptionTimeline) {
            for position in 0..<timeline.segmentCount {
                let segment = timeline.segment(position)
                let transaction = timeline.transactions[segment.transaction]
                guard transaction.isPaid else { continue }
                // active_start: periods whose start p0 is in [start, end).
                let firstStart = ReportPeriod.firstIndex(startingAtOrAfter: segment.start, in: periods)
                let endStart = ReportPeriod.firstIndex(startingAtOrAfter: segment.end, in: periods)
                // active_end: periods whose p1 − 1 ms is in [start, end), i.e. p1 in (start, end].
                let firstEnd = ReportPeriod.firstIndex(endingAfter: segment.start, in: periods)
                let endEnd = ReportPeriod.firstIndex(endingAfter: segment.end, in: periods)
                guard firstStart < endStart || firstEnd < endEnd else { continue }
                let product = index(of: transaction)
                if firstStart < endStart {
                    activeStartDeltas[product][firstStart] += 1
                    activeStartDeltas[product][endStart] -= 1
                }
                if firstEnd < endEnd {
                    activeEndDeltas[product][firstEnd] += 1
                    activeEndDeltas[product][endEnd] -= 1
                }
            }
            for (position, span) in timeline.spans.enumerated() {
                if let period = Self.period(containing: span.start, in: periods) {
                    let product = index(of: timeline.transactions[span.first])
                    if position == 0 { new[product][period] += 1 } else { reactivated[product][period] += 1 }
                }
                guard let lapse = span.lapse, let period = Self.period(containing: lapse.at, in: periods) else { continue }
                let covering = timeline.transactions[lapse.lastCovering]
                guard covering.isPaid else { continue }
                let product = index(of: covering)
                churned[product][period] += 1
                reasons[product][period * LapseReason.allCases.count + (Self.reasonIndex[lapse.reason] ?? 0)] += 1
            }
        }

        static let reasonIndex = Dictionary(uniqueKeysWithValues: LapseReason.allCases.enumerated().map { ($1, $0) })

        /// Period → product and plan → counts, for the cells with a non-zero count.
        func cells() -> [[ProductPlan: Counts]] {
            var cells = Array(repeating: [ProductPlan: Counts](), count: periods.count)
            for (product, name) in products.enumerated() {
                var activeStart = 0
                var activeEnd = 0
                for period in periods.indices {
                    activeStart += activeStartDeltas[product][period]
                    activeEnd += activeEndDeltas[product][period]
                    var counts = Counts()
                    counts.activeStart = activeStart
                    counts.activeEnd = activeEnd
                    counts.new = new[product][period]
                    counts.reactivated = reactivated[product][period]
                    counts.churned = churned[product][period]
                    for (index, reason) in LapseReason.allCases.enumerated() {
                        let count = reasons[product][period * LapseReason.allCases.count + index]
                        if count > 0 { counts.byReason[reason] = count }
                    }
                    if !counts.isZero { cells[period][name] = counts }
                }
            }
            return cells
        }
    }

    /// Sorted rows (period, product, plan) with some non-zero count, in the churn column order.
    public func rows(productGroups: [String: String]) -> [Row] {
        var rows: [Row] = []
        for (index, period) in periods.enumerated() {
            for product in cells[index].keys.sorted(by: ProductPlan.precedes) {
                guard let counts = cells[index][product], !counts.isZero else { continue }
                rows.append(
                    Row(period: period.label, product: product, subscriptionGroupId: productGroups[product.productId], counts: counts))
            }
        }
        return rows
    }

    /// Totals of one period over all products and plans.
    public func totals(period index: Int) -> Counts {
        var total = Counts()
        for counts in cells[index].values {
            total.activeStart += counts.activeStart
            total.activeEnd += counts.activeEnd
            total.new += counts.new
            total.reactivated += counts.reactivated
            total.churned += counts.churned
        }
        return total
    }
}
