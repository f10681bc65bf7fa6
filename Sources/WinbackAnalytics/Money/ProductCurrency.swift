/// The key of a money row after its period: product (with billing plan where the table has one) and currency.
struct ProductCurrency: Hashable, Sendable {
    var product: ProductPlan
    /// The row's `currency` (`nil`: an unpriced transaction without one, no reporting currency set).
    var currency: String?

    /// Report order: product, plan, then currency by code point, empty first.
    static func precedes(_ a: ProductCurrency, _ b: ProductCurrency) -> Bool {
        a.product != b.product ? ProductPlan.precedes(a.product, b.product) : CodePointOrder.less(a.currency ?? "", b.currency ?? "")
    }
}
