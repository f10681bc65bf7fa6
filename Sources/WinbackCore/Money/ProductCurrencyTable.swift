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
        let slot: Int
        if let known = slots[key] {
            slot = known
        } else {
            slot = keys.count
            slots[key] = slot
            keys.append(key)
            cells.append(Array(repeating: empty, count: periodCount))
        }
        last = (transaction.attributes, slot)
        return slot
    }

    /// The slots in report order of their keys.
    var orderedSlots: [Int] { keys.indices.sorted { ProductCurrency.precedes(keys[$0], keys[$1]) } }
}
