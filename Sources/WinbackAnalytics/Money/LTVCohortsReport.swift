/// `ltv_cohorts` (docs/money.md): what a cohort of sales has paid so far. Cohorts as `retention_cohorts`: the
/// month and product of each sale's first paid transaction `F` (the row currency: the reporting currency,
/// else `F`'s). For `month_index` k = 0…24 the window is `[F.purchaseDate, F.purchaseDate + (k + 1)
/// months)` in the report time zone.
///
/// - `eligible`: members whose window ends at or before `T`.
/// - `cumulative_net`: their charges minus refunds dated inside their windows, in the row currency
///   (without a reporting currency, amounts in another currency than `F`'s are left out).
/// - `ltv = cumulative_net / eligible`, rounded once; empty when none is eligible.
///
/// A row per cohort and k = 0…24 (its `cohort_size` is never 0).
///
/// Example: a member first charged 9.99 on Jan 10, renewing monthly, with `T` on Apr 1: windows end Feb 10,
/// Mar 10 (eligible, 9990 and 19980), Apr 10 and later (not eligible yet).
public struct LTVCohortsReport: Sendable {
    /// The last month index (25 windows).
    public static let maximumMonthIndex = 24

    private struct Key: Hashable {
        var month: Int
        var product: ProductCurrency
    }

    private struct Cohort {
        var size = 0
        var eligible = Array(repeating: 0, count: maximumMonthIndex + 1)
        var net = Array(repeating: Int64(0), count: maximumMonthIndex + 1)
    }

    private let months: [ReportPeriod]
    private let calendar: ReportCalendar
    private var cohorts: [Key: Cohort] = [:]

    /// An empty report whose cohort months are `months` (from the first paid purchase through `D`'s).
    public init(months: [ReportPeriod], calendar: ReportCalendar) {
        self.months = months
        self.calendar = calendar
    }

    /// The report whose cohort months are `months` from the counters of a ``tally`` (or of several, added);
    /// cohorts of other months are left out (docs/sharding.md).
    public init(months: [ReportPeriod], calendar: ReportCalendar, tally: TallyTable) {
        self.init(months: months, calendar: calendar)
        let width = Self.maximumMonthIndex + 1
        let index = Dictionary(uniqueKeysWithValues: months.enumerated().map { ($1.label, $0) })
        for (key, values) in tally.counts {
            guard key.count == 3, let label = key[0], let month = index[label], let productId = key[1], values.count == 1 + 2 * width
            else { continue }
            let product = ProductCurrency(product: ProductPlan(productId: productId, billingPlanType: nil), currency: key[2])
            cohorts[Key(month: month, product: product)] = Cohort(
                size: Int(values[0]), eligible: values[1...width].map(Int.init), net: Array(values[(1 + width)...]))
        }
    }

    /// The counts of every cohort, keyed `[month label, product, currency]`: `cohort_size`, then `eligible` and
    /// then `cumulative_net` for k = 0…24.
    public var tally: TallyTable {
        var table = TallyTable()
        for (key, cohort) in cohorts {
            table.add(
                [months[key.month].label, key.product.product.productId, key.product.currency],
                [Int64(cohort.size)] + cohort.eligible.map(Int64.init) + cohort.net)
        }
        return table
    }

    /// Adds `timeline` (a sale with a paid transaction) with its `events` (``SubscriptionTimeline/moneyEvents(_:)``).
    public mutating func add(_ events: [MoneyEvent], of timeline: SubscriptionTimeline, context: MoneyContext) {
        guard timeline.isSale, let firstIndex = timeline.transactions.firstIndex(where: \.isPaid) else { return }
        let first = timeline.transactions[firstIndex]
        guard let month = ReportPeriod.index(containing: first.purchaseDate, in: months) else { return }
        let currency = context.rowCurrency(first.currency)
        let key = Key(
            month: month,
            product: ProductCurrency(product: ProductPlan(productId: first.productId, billingPlanType: nil), currency: currency))
        var cohort = cohorts[key] ?? Cohort()
        cohort.size += 1
        // Without conversion only amounts in F's currency count.
        let counted = events.filter { event in
            event.amount != nil && event.instant >= first.purchaseDate
                && (context.rates != nil || timeline.transactions[event.transaction].currency == first.currency)
        }
        for k in 0...Self.maximumMonthIndex {
            let end = calendar.addingMonths(Int64(k + 1), to: first.purchaseDate)
            guard end <= calendar.asOf else { break }
            cohort.eligible[k] += 1
            for event in counted where event.instant < end {
                let amount = event.amount ?? 0
                cohort.net[k] &+= event.kind == .refund ? -amount : amount
            }
        }
        cohorts[key] = cohort
    }

    /// A row of `ltv_cohorts`: one cohort month, product and currency at month index `k`.
    public struct Row: TableRow, Equatable {
        /// `cohort_month`.
        public var cohortMonth: String
        /// `product_id`.
        public var productId: String
        /// `currency`.
        public var currency: String?
        /// `month_index`: `k`.
        public var monthIndex: Int
        /// `cohort_size`.
        public var cohortSize: Int
        /// `eligible`: members whose month `k` had ended by `T`.
        public var eligible: Int
        /// `cumulative_net`: their net revenue to the end of month `k`, milliunits.
        public var cumulativeNet: Int64

        /// A row from its values.
        public init(
            cohortMonth: String, productId: String, currency: String?, monthIndex: Int, cohortSize: Int, eligible: Int, cumulativeNet: Int64
        ) {
            self.cohortMonth = cohortMonth
            self.productId = productId
            self.currency = currency
            self.monthIndex = monthIndex
            self.cohortSize = cohortSize
            self.eligible = eligible
            self.cumulativeNet = cumulativeNet
        }

        /// `ltv`: ``cumulativeNet`` per eligible member, milliunits rounded half away from zero; `nil` with none.
        public var ltv: Int64? { eligible == 0 ? nil : MoneyMath.rounded(Int128(cumulativeNet), over: Int128(eligible)) }

        /// Hands the row's values to `fields`, in the schema's column order.
        public func write(to fields: inout some RowFields) {
            fields.text(cohortMonth)
            fields.text(productId)
            fields.text(currency)
            for count in [monthIndex, cohortSize, eligible] { fields.integer(Int64(count)) }
            fields.money(cumulativeNet)
            fields.money(ltv)
        }
    }

    /// The rows (cohort month, product, currency, month index), sorted by key.
    public func rows() -> [Row] {
        let keys = cohorts.keys.sorted { a, b in a.month != b.month ? a.month < b.month : ProductCurrency.precedes(a.product, b.product) }
        var rows: [Row] = []
        for key in keys {
            guard let cohort = cohorts[key] else { continue }
            for k in 0...Self.maximumMonthIndex {
                rows.append(
                    Row(
                        cohortMonth: months[key.month].label, productId: key.product.product.productId, currency: key.product.currency,
                        monthIndex: k, cohortSize: cohort.size, eligible: cohort.eligible[k], cumulativeNet: cohort.net[k]))
            }
        }
        return rows
    }
}
