import WinbackAnalytics
import WinbackAppStore

/// What a product's next paid period costs (docs/renewal-outlook.md): per product and currency, its latest
/// standard paid transaction's price and period length. A subscription's own latest standard price comes first;
/// this table prices one still in a free trial or an offer. Combinable across shards (the latest purchase wins).
public struct RenewalPrices: Sendable, Equatable {
    /// One product's price in one currency.
    public struct Price: Sendable, Equatable {
        /// When it was paid (the latest wins), epoch ms.
        public var purchaseDate: Int64
        /// Milliunits of `currency`.
        public var price: Int64
        /// The paid period's length, ms.
        public var duration: Int64

        /// A price from its parts.
        public init(purchaseDate: Int64, price: Int64, duration: Int64) {
            self.purchaseDate = purchaseDate
            self.price = price
            self.duration = duration
        }
    }

    /// By `"<productId>|<currency>|<billing plan>"` (`MONTHLY` for a commitment's instalment, else `-`).
    public var prices: [String: Price] = [:]

    /// An empty table.
    public init() {}

    /// The standard paid price of `transaction`, when it has one.
    static func price(of transaction: SubscriptionTransaction) -> (key: String, price: Price)? {
        guard isStandardPaid(transaction), let price = transaction.price, let currency = transaction.currency else { return nil }
        return (
            key(transaction.productId, currency: currency, plan: transaction.billingPlanType),
            Price(purchaseDate: transaction.purchaseDate, price: price, duration: transaction.expiresDate - transaction.purchaseDate)
        )
    }

    /// Adds the latest standard paid transaction of each product, currency and plan of `timeline` purchased before
    /// `cut` (an earlier one of the same never wins: the latest purchase does).
    public mutating func add(_ timeline: SubscriptionTimeline, before cut: Int64) {
        var seen: [(product: String, currency: String, plan: String?)] = []
        for transaction in timeline.transactions.reversed() where transaction.purchaseDate < cut && Self.isStandardPaid(transaction) {
            guard let currency = transaction.currency else { continue }
            let product = transaction.productId
            let plan = transaction.billingPlanType
            guard !seen.contains(where: { $0.product == product && $0.currency == currency && $0.plan == plan }) else { continue }
            seen.append((product, currency, plan))
            if let (key, price) = Self.price(of: transaction) { combine(key, price) }
        }
    }

    /// A standard (no offer) paid transaction with a price.
    static func isStandardPaid(_ transaction: SubscriptionTransaction) -> Bool {
        transaction.offerType == nil && transaction.isPaid && (transaction.price ?? 0) > 0
            && transaction.expiresDate > transaction.purchaseDate
    }

    /// Adds another table (a shard's).
    public mutating func add(_ other: RenewalPrices) {
        for (key, price) in other.prices { combine(key, price) }
    }

    private mutating func combine(_ key: String, _ price: Price) {
        guard let kept = prices[key] else {
            prices[key] = price
            return
        }
        if (price.purchaseDate, price.price, price.duration) > (kept.purchaseDate, kept.price, kept.duration) { prices[key] = price }
    }

    /// The key of a product's price in `currency` on billing plan `plan`.
    static func key(_ productId: String, currency: String, plan: String?) -> String {
        productId + "|" + currency + "|" + (plan == "MONTHLY" ? "MONTHLY" : "-")
    }

    /// The price of `productId` in `currency` on billing plan `plan`.
    public func price(_ productId: String, currency: String, plan: String?) -> Price? {
        prices[Self.key(productId, currency: currency, plan: plan)]
    }

    /// The table as JSON (`{"<key>": [purchaseDate, price, duration], …}`, keys in code-point order).
    public var json: JSONValue {
        JSONText.object(
            prices.keys.sorted { CodePointOrder.less($0, $1) }.map { key in
                let price = prices[key] ?? Price(purchaseDate: 0, price: 0, duration: 0)
                return (key, JSONText.array([.integer(price.purchaseDate), .integer(price.price), .integer(price.duration)]))
            })
    }

    /// The table ``json`` holds, or `nil`.
    public init?(json: JSONValue) {
        guard let members = json.objectMembers else { return nil }
        for member in members {
            guard case .array(let values) = member.value, values.count == 3, case .integer(let purchase) = values[0].value,
                case .integer(let price) = values[1].value, case .integer(let duration) = values[2].value
            else { return nil }
            prices[member.key] = Price(purchaseDate: purchase, price: price, duration: duration)
        }
    }
}
