/// A product of the synthetic app.
public struct SampleProduct: Sendable, Equatable {
    public var productId: String
    public var groupId: String
    /// Length of one paid period in calendar months.
    public var months: Int64
    /// Price in milliunits.
    public var price: Int64

    public static let monthly = SampleProduct(productId: "com.example.winback.monthly", groupId: "21440001", months: 1, price: 9990)
    public static let annual = SampleProduct(productId: "com.example.winback.annual", groupId: "21440001", months: 12, price: 59990)
    public static let proMonthly = SampleProduct(productId: "com.example.winback.pro.monthly", groupId: "21440002", months: 1, price: 14990)
}
