import WinbackAppStore

extension RefundRequest {
    /// The request as one JSON object (a shard's partial carries it to the merge; docs/sharding.md).
    public var json: JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        func number(_ value: Int64?) -> JSONValue { value.map(JSONValue.integer) ?? .null }
        return JSONText.object([
            ("notificationUUID", .string(notificationUUID)), ("transactionId", text(transactionId)),
            ("originalTransactionId", text(originalTransactionId)), ("accountKey", text(accountKey)),
            ("appAccountToken", text(appAccountToken)), ("productId", text(productId)), ("storefront", text(storefront)),
            ("reason", text(reason)), ("requestedAt", .integer(requestedAt)), ("paidDays", .integer(paidDays)),
            ("daysSincePurchase", number(daysSincePurchase)), ("priorRefunds", .integer(priorRefunds)),
            ("isDelivered", .bool(isDelivered)), ("hadFreeTrialBefore", .bool(hadFreeTrialBefore)),
            ("outcome", .string(outcome.rawValue)), ("outcomeAt", number(outcomeAt)), ("refundAmount", number(refundAmount)),
            ("currency", text(currency)),
        ])
    }

    /// The request ``json`` holds, or `nil` when it is not one.
    public init?(json: JSONValue) {
        func text(_ key: String) -> String?? {
            switch json[key] {
            case .string(let value)?: return .some(value)
            case .null?, nil: return .some(nil)
            default: return nil
            }
        }
        func number(_ key: String) -> Int64?? {
            switch json[key] {
            case .integer(let value)?: return .some(value)
            case .null?, nil: return .some(nil)
            default: return nil
            }
        }
        func flag(_ key: String) -> Bool? {
            guard case .bool(let value)? = json[key] else { return nil }
            return value
        }
        guard case .string(let uuid)? = json["notificationUUID"], let transactionId = text("transactionId"),
            let originalTransactionId = text("originalTransactionId"), let reason = text("reason"),
            case .integer(let requestedAt)? = json["requestedAt"], let accountKey = text("accountKey"),
            let token = text("appAccountToken"), let productId = text("productId"), let storefront = text("storefront"),
            case .integer(let paidDays)? = json["paidDays"], let daysSincePurchase = number("daysSincePurchase"),
            case .integer(let priorRefunds)? = json["priorRefunds"], let isDelivered = flag("isDelivered"),
            let hadFreeTrialBefore = flag("hadFreeTrialBefore"), case .string(let outcomeText)? = json["outcome"],
            let outcome = Outcome(rawValue: outcomeText), let outcomeAt = number("outcomeAt"), let refundAmount = number("refundAmount"),
            let currency = text("currency")
        else { return nil }
        self.init(
            notificationUUID: uuid, transactionId: transactionId, originalTransactionId: originalTransactionId, reason: reason,
            requestedAt: requestedAt)
        self.accountKey = accountKey
        self.appAccountToken = token
        self.productId = productId
        self.storefront = storefront
        self.paidDays = paidDays
        self.daysSincePurchase = daysSincePurchase
        self.priorRefunds = priorRefunds
        self.isDelivered = isDelivered
        self.hadFreeTrialBefore = hadFreeTrialBefore
        self.outcome = outcome
        self.outcomeAt = outcomeAt
        self.refundAmount = refundAmount
        self.currency = currency
    }
}
