/// The product key of the churn, cohort and MRR reports (docs/notifications-and-commitments.md): a product and how it is billed, so a
/// monthly-billed 12-month commitment never mixes with the same product billed up front.
public struct ProductPlan: Hashable, Sendable {
    /// Apple's `productId`.
    public var productId: String
    /// `billingPlanType` raw value of the transaction that decides the product; `nil` when absent.
    public var billingPlanType: String?

    /// The key of `productId` billed as `billingPlanType`.
    public init(productId: String, billingPlanType: String?) {
        self.productId = productId
        self.billingPlanType = billingPlanType
    }

    /// The key of the product and plan `transaction` carries.
    public init(_ transaction: SubscriptionTransaction) {
        self.init(productId: transaction.productId, billingPlanType: transaction.billingPlanType)
    }

    /// Report order: product id, then plan, by code point; an absent plan (an empty cell) first.
    public static func precedes(_ a: ProductPlan, _ b: ProductPlan) -> Bool {
        a.productId != b.productId
            ? CodePointOrder.less(a.productId, b.productId) : CodePointOrder.less(a.billingPlanType ?? "", b.billingPlanType ?? "")
    }
}
