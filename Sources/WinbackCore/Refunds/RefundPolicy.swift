import WinbackAppStore

/// One of `refunds.policies` (docs/refunds.md): when it applies and what it answers. Policies are tried in
/// order; the first whose `when` holds decides.
public struct RefundPolicy: Sendable, Equatable {
    /// `when`: every condition given must hold; none given matches every request.
    public struct Conditions: Sendable, Equatable {
        /// `reasons`: the request's `consumptionRequestReason` is one of these. A request without a reason
        /// matches only policies without `reasons`.
        public var reasons: [String]?
        /// `productIds`: the asked transaction's product is one of these.
        public var productIds: [String]?
        /// `storefronts`: the asked transaction's storefront is one of these.
        public var storefronts: [String]?
        /// `minPaidDays`: the subscription's paid days up to the request are at least this.
        public var minPaidDays: Int64?
        /// `maxPaidDays`: … at most this.
        public var maxPaidDays: Int64?
        /// `maxDaysSincePurchase`: whole days from the asked transaction's purchase to the request, at most this.
        public var maxDaysSincePurchase: Int64?
        /// `minPriorRefunds`: the account's refunded transactions signed before the request, at least this.
        public var minPriorRefunds: Int64?

        /// No condition: matches every request.
        public init() {}

        /// Whether every given condition holds for `request`. A condition on the asked transaction (product,
        /// storefront, days since purchase) does not hold when the model does not hold that transaction.
        public func admit(_ request: RefundRequest) -> Bool {
            if let reasons {
                guard let reason = request.reason, reasons.contains(reason) else { return false }
            }
            if let productIds {
                guard let product = request.productId, productIds.contains(product) else { return false }
            }
            if let storefronts {
                guard let storefront = request.storefront, storefronts.contains(storefront) else { return false }
            }
            if let minPaidDays, request.paidDays < minPaidDays { return false }
            if let maxPaidDays, request.paidDays > maxPaidDays { return false }
            if let maxDaysSincePurchase {
                guard let days = request.daysSincePurchase, days <= maxDaysSincePurchase else { return false }
            }
            if let minPriorRefunds, request.priorRefunds < minPriorRefunds { return false }
            return true
        }
    }

    /// `id`: names the policy in the ledger, the report and the summary.
    public var id: String
    /// `when`.
    public var conditions: Conditions
    /// `preference`.
    public var preference: RefundPreference

    /// A policy from its parts.
    public init(id: String, conditions: Conditions = Conditions(), preference: RefundPreference) {
        self.id = id
        self.conditions = conditions
        self.preference = preference
    }

    /// Parses one policy object at `key` (`refunds.policies[i]`); every error names its key.
    static func parse(_ value: JSONValue, key: String) throws(ConfigError) -> RefundPolicy {
        let object = try ConfigObject(value, key: key)
        try object.allowOnly(["id", "when", "preference"])
        let id = try object.string("id")
        let preferenceText = try object.string("preference")
        guard let preference = RefundPreference(rawValue: preferenceText) else {
            throw ConfigError(
                key: key + ".preference",
                message: "expected one of \(RefundPreference.allCases.map(\.rawValue).joined(separator: ", ")), found '\(preferenceText)'")
        }
        var conditions = Conditions()
        if let when = object.optional("when") {
            let reader = try ConfigObject(when, key: key + ".when")
            try reader.allowOnly([
                "reasons", "productIds", "storefronts", "minPaidDays", "maxPaidDays", "maxDaysSincePurchase", "minPriorRefunds",
            ])
            if reader.optional("reasons") != nil {
                let reasons = try reader.stringArray("reasons")
                for (index, reason) in reasons.enumerated() where ConsumptionRequestReason(rawValue: reason) == nil {
                    throw ConfigError(
                        key: "\(key).when.reasons[\(index)]",
                        message:
                            "expected one of \(ConsumptionRequestReason.allCases.map(\.rawValue).joined(separator: ", ")), found '\(reason)'"
                    )
                }
                conditions.reasons = reasons
            }
            if reader.optional("productIds") != nil { conditions.productIds = try reader.stringArray("productIds") }
            if reader.optional("storefronts") != nil { conditions.storefronts = try reader.stringArray("storefronts") }
            func count(_ name: String) throws(ConfigError) -> Int64? {
                guard let number = try reader.optionalInteger(name) else { return nil }
                guard number >= 0 else { throw ConfigError(key: "\(key).when.\(name)", message: "expected 0 or more, found \(number)") }
                return number
            }
            conditions.minPaidDays = try count("minPaidDays")
            conditions.maxPaidDays = try count("maxPaidDays")
            conditions.maxDaysSincePurchase = try count("maxDaysSincePurchase")
            conditions.minPriorRefunds = try count("minPriorRefunds")
            if let low = conditions.minPaidDays, let high = conditions.maxPaidDays, low > high {
                throw ConfigError(key: "\(key).when.maxPaidDays", message: "\(high) is below minPaidDays \(low)")
            }
        }
        return RefundPolicy(id: id, conditions: conditions, preference: preference)
    }
}
