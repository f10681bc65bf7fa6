/// The dense counts of a money table: one slot per (product, plan, currency) key met, each with a cell per
/// period. A transaction's key depends only on its interned attributes, so the attributes met last are
/// remembered: most lookups are one identity comparison, not a hash of two strings.
struct ProductCurrencyTable<Counts: Sendable>: Sendable {
    /// Whether the key keeps the billing plan (MRR) or only the product (revenue).
    let keepsPlan: Bool
    /// The counts of a new cell.
    let empty: Counts
    let periodCount: Int
    private var slots: [ProductCurrency: Int] = [:]
    /// Slot → key.
    private(set) var keys: [ProductCurrency] = []
    /// Slot → period → counts.
    var cells: [[Counts]] = []
    private var last: (attributes: TransactionAttributes, slot: Int)?

    init(periodCount: Int, keepsPlan: Bool, empty: Counts) {
        self.periodCount = periodCount
        self.keepsPlan = keepsPlan
        self.empty = empty
    }

    /// The slot of `transaction`'s key in `context`'s row currency, added when new.
    mutating func slot(of transaction: SubscriptionTransaction, context: MoneyContext) -> Int {
        if let last, last.attributes === transaction.attributes { return last.slot }
        let key = ProductCurrency(
            product: ProductPlan(productId: transaction.productId, billingPlanType: keepsPlan ? transaction.billingPlanType : nil),
            currency: context.rowCurrency(transaction.currency))
        let slot = slot(of: key)
        last = (transaction.attributes, slot)
        return slot
    }

    /// The slot of `key`, added when new.
    mutating func slot(of key: ProductCurrency) -> Int {
        if let known = slots[key] { return known }
        let slot = keys.count
        slots[key] = slot
        keys.append(key)
        cells.append(Array(repeating: empty, count: periodCount))
        return slot
    }

    /// The cells of `periods` whose counts `include` keeps, keyed `[period label, product, plan (when kept),
    /// currency]`, each as its `values` (docs/sharding.md).
    func tally(periods: [ReportPeriod], include: (Counts) -> Bool, values: (Counts) -> [Int64]) -> TallyTable {
        var table = TallyTable()
        for (slot, key) in keys.enumerated() {
            for (index, period) in periods.enumerated() where include(cells[slot][index]) {
                let keyCells: [String?] =
                    keepsPlan
                    ? [period.label, key.product.productId, key.product.billingPlanType, key.currency]
                    : [period.label, key.product.productId, key.currency]
                table.add(keyCells, values(cells[slot][index]))
            }
        }
        return table
    }

    /// Adds the cells of `tally` (of ``tally(periods:include:values:)``'s shape) whose period is one of `periods`,
    /// each read back by `counts`.
    mutating func add(_ tally: TallyTable, periods: [ReportPeriod], counts: ([Int64]) -> Counts?) {
        let index = Dictionary(uniqueKeysWithValues: periods.enumerated().map { ($1.label, $0) })
        let width = keepsPlan ? 4 : 3
        for (key, values) in tally.counts {
            guard key.count == width, let label = key[0], let period = index[label], let productId = key[1], let cell = counts(values)
            else { continue }
            let product = ProductPlan(productId: productId, billingPlanType: keepsPlan ? key[2] : nil)
            cells[slot(of: ProductCurrency(product: product, currency: key[width - 1]))][period] = cell
        }
    }

    /// The slots in report order of their keys.
    var orderedSlots: [Int] { keys.indices.sorted { ProductCurrency.precedes(keys[$0], keys[$1]) } }
}
