/// A product of the synthetic app.
public struct SampleProduct: Sendable, Equatable {
    /// The product's `productId`.
    public var productId: String
    /// The product's `subscriptionGroupIdentifier`.
    public var groupId: String
    /// Length of one paid period in calendar months.
    public var months: Int64
    /// Price in milliunits.
    public var price: Int64

    /// A monthly plan.
    public static let monthly = SampleProduct(productId: "com.example.winback.monthly", groupId: "21440001", months: 1, price: 9990)
    /// An annual plan in the same group.
    public static let annual = SampleProduct(productId: "com.example.winback.annual", groupId: "21440001", months: 12, price: 59990)
    /// A monthly plan in a second group.
    public static let proMonthly = SampleProduct(productId: "com.example.winback.pro.monthly", groupId: "21440002", months: 1, price: 14990)
}
