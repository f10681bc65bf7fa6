import WinbackAnalytics
import WinbackAppStore

/// How a shard's part and row facts travel to the merge (docs/sharding.md): JSON, read back only by the merge.
extension RenewalFeatures {
    /// `[autoRenew, billing, kind, renewalIndex, priceIncreasePending, productId]`.
    public var json: JSONValue {
        JSONText.array([
            .bool(autoRenew), .string(billing.rawValue), .string(kind.rawValue), .integer(Int64(renewalIndex)), .bool(priceIncreasePending),
            .string(productId),
        ])
    }

    /// The features ``json`` holds, or `nil`.
    public init?(json: JSONValue) {
        guard case .array(let items) = json, items.count == 6, case .bool(let autoRenew) = items[0].value,
            case .string(let billingText) = items[1].value, let billing = BillingState(rawValue: billingText),
            case .string(let kindText) = items[2].value, let kind = PeriodKind(rawValue: kindText),
            case .integer(let index) = items[3].value, case .bool(let price) = items[4].value, case .string(let product) = items[5].value
        else { return nil }
        self.init(
            autoRenew: autoRenew, billing: billing, kind: kind, renewalIndex: Int(index), priceIncreasePending: price, productId: product)
    }
}

extension RenewalFacts {
    /// The facts as one JSON object.
    public var json: JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return JSONText.object([
            ("originalTransactionId", .string(originalTransactionId)), ("accountKey", .string(accountKey)),
            ("productId", .string(productId)),
            ("storefront", text(storefront)), ("nextRenewalAt", .integer(nextRenewalAt)), ("features", features.json),
            ("currency", text(currency)), ("billingPlan", text(billingPlan)),
            (
                "ownPrice",
                ownPrice.map { JSONText.array([.integer($0.purchaseDate), .integer($0.price), .integer($0.duration)]) } ?? .null
            ),
            ("periodDuration", .integer(periodDuration)), ("isSale", .bool(isSale)), ("serviceDays", .integer(serviceDays)),
        ])
    }

    /// The facts ``json`` holds, or `nil`.
    public init?(json: JSONValue) {
        func text(_ key: String) -> String?? {
            switch json[key] {
            case .string(let value)?: .some(value)
            case .null?, nil: .some(nil)
            default: nil
            }
        }
        var ownPrice: RenewalPrices.Price?
        if case .array(let values)? = json["ownPrice"] {
            guard values.count == 3, case .integer(let purchase) = values[0].value, case .integer(let price) = values[1].value,
                case .integer(let duration) = values[2].value
            else { return nil }
            ownPrice = RenewalPrices.Price(purchaseDate: purchase, price: price, duration: duration)
        }
        guard case .string(let id)? = json["originalTransactionId"], case .string(let account)? = json["accountKey"],
            case .string(let product)? = json["productId"], let storefront = text("storefront"),
            case .integer(let next)? = json["nextRenewalAt"], let features = json["features"].flatMap(RenewalFeatures.init(json:)),
            let currency = text("currency"), let plan = text("billingPlan"), case .integer(let duration)? = json["periodDuration"],
            case .bool(let isSale)? = json["isSale"], case .integer(let serviceDays)? = json["serviceDays"]
        else { return nil }
        self.init(
            originalTransactionId: id, accountKey: account, productId: product, storefront: storefront, nextRenewalAt: next,
            features: features, currency: currency, billingPlan: plan, ownPrice: ownPrice, periodDuration: duration, isSale: isSale,
            serviceDays: serviceDays)
    }
}

extension RenewalOutlook {
    /// The part (without row facts) as one JSON object.
    public var json: JSONValue {
        JSONText.object([
            ("tally", tally.json), ("backtestTally", backtestTally.json), ("prices", prices.json),
            (
                "scoring",
                JSONText.array(
                    scoring.map { (key: JSONText.render($0.key.json), features: $0.key, counts: $0.value) }
                        .sorted { CodePointOrder.less($0.key, $1.key) }
                        .map { JSONText.array([$0.features.json, .integer(Int64($0.counts.due)), .integer(Int64($0.counts.renewed))]) })
            ),
        ])
    }

    /// The part ``json`` holds, or `nil`.
    public init?(json: JSONValue) {
        guard let tally = json["tally"].flatMap(RenewalTally.init(json:)),
            let backtestTally = json["backtestTally"].flatMap(RenewalTally.init(json:)),
            let prices = json["prices"].flatMap(RenewalPrices.init(json:)), case .array(let scored)? = json["scoring"]
        else { return nil }
        self.init()
        self.tally = tally
        self.backtestTally = backtestTally
        self.prices = prices
        for item in scored {
            guard case .array(let group) = item.value, group.count == 3, let features = RenewalFeatures(json: group[0].value),
                case .integer(let due) = group[1].value, case .integer(let renewed) = group[2].value
            else { return nil }
            scoring[features] = RenewalTally.Counts(due: Int(due), renewed: Int(renewed))
        }
    }
}
