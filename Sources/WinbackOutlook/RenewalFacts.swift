import WinbackAnalytics
import WinbackAppStore

/// One row of the outlook before the estimate (docs/renewal-outlook.md): the subscription, the features of its next
/// renewal and what prices its renewals. A shard computes these for its subscriptions; the probabilities and the
/// prices of periods not yet paid at the standard price come from every shard's past (the fit, ``RenewalPrices``).
public struct RenewalFacts: Sendable, Equatable {
    /// The subscription.
    public var originalTransactionId: String
    /// The account key (`appAccountToken` in lower case, else the `originalTransactionId`).
    public var accountKey: String
    /// The product of the period now running.
    public var productId: String
    /// Its storefront.
    public var storefront: String?
    /// The next renewal's due date (`next_renewal_at`), epoch ms.
    public var nextRenewalAt: Int64
    /// The next renewal's features.
    public var features: RenewalFeatures
    /// The currency of the period now running, and its billing plan (`MONTHLY` for a commitment's instalment).
    public var currency: String?
    /// The billing plan of the period now running.
    public var billingPlan: String?
    /// The subscription's own latest standard paid price in that currency and plan, if it paid one.
    public var ownPrice: RenewalPrices.Price?
    /// The length of the period now running, ms (its renewals' period when no standard price says otherwise).
    public var periodDuration: Int64
    /// Ownership is `PURCHASED` (family-shared access brings no proceeds).
    public var isSale: Bool
    /// Paid service days at `T` (docs/money.md: the commission's rate).
    public var serviceDays: Int64

    /// Facts from their parts.
    public init(
        originalTransactionId: String, accountKey: String, productId: String, storefront: String?, nextRenewalAt: Int64,
        features: RenewalFeatures, currency: String?, billingPlan: String?, ownPrice: RenewalPrices.Price?, periodDuration: Int64,
        isSale: Bool, serviceDays: Int64
    ) {
        self.originalTransactionId = originalTransactionId
        self.accountKey = accountKey
        self.productId = productId
        self.storefront = storefront
        self.nextRenewalAt = nextRenewalAt
        self.features = features
        self.currency = currency
        self.billingPlan = billingPlan
        self.ownPrice = ownPrice
        self.periodDuration = periodDuration
        self.isSale = isSale
        self.serviceDays = serviceDays
    }

    /// The facts of `timeline` from its `history` at `T`.
    static func of(_ timeline: SubscriptionTimeline, history: RenewalHistory) -> RenewalFacts? {
        guard let (features, dueAt, index) = history.next(isNow: true) else { return nil }
        let transaction = timeline.transactions[index]
        var ownPrice: RenewalPrices.Price?
        if let currency = transaction.currency {
            let own = timeline.transactions.last {
                RenewalPrices.isStandardPaid($0) && $0.productId == transaction.productId && $0.currency == currency
                    && $0.billingPlanType == transaction.billingPlanType
            }
            ownPrice = own.flatMap { RenewalPrices.price(of: $0)?.price }
        }
        return RenewalFacts(
            originalTransactionId: timeline.originalTransactionId,
            accountKey: timeline.accountKey,
            productId: transaction.productId, storefront: transaction.storefront, nextRenewalAt: dueAt, features: features,
            currency: transaction.currency, billingPlan: transaction.billingPlanType, ownPrice: ownPrice,
            periodDuration: max(transaction.expiresDate - transaction.purchaseDate, InstantFormat.day), isSale: timeline.isSale,
            serviceDays: timeline.serviceDays(at: timeline.asOf))
    }

    /// The renewals due in `(asOf, asOf + 12 months]` (a billing retry's recovery, due before `asOf`, included),
    /// each with its proceeds in the reporting currency (`nil` when unknown: no price, no rate, no reporting
    /// currency; 0 when not a sale).
    public func schedule(prices: RenewalPrices, money: MoneyContext, asOf: Int64) -> [(dueAt: Int64, proceeds: Int64?)] {
        let price = ownPrice ?? currency.flatMap { prices.price(productId, currency: $0, plan: billingPlan) }
        let duration = price?.duration ?? periodDuration
        let months = Int64((Double(duration) / (30.436875 * 86_400_000)).rounded())
        let end = InstantFormat.addingMonths(asOf, 12)
        var schedule: [(dueAt: Int64, proceeds: Int64?)] = []
        // One price converted at `D`'s rate; the proceeds change only when the commission's rate does.
        var amount: Int64?
        if let price, let currency, money.settings.currency != nil {
            amount = money.convert(price.price, currency: currency, at: asOf - 1)
        }
        let tax = money.settings.taxRate(storefront: storefront)
        var last: (rate: ExactDecimal, proceeds: Int64)?
        var due = nextRenewalAt
        var step: Int64 = 0
        while due <= end, schedule.count < 400 {
            var proceeds: Int64?
            if !isSale {
                proceeds = 0
            } else if let amount {
                let rate = money.settings.commission.rate(serviceDays: serviceDays + max(0, (due - asOf) / InstantFormat.day))
                if let last, last.rate == rate {
                    proceeds = last.proceeds
                } else {
                    let computed = MoneyMath.proceeds(amount, tax: tax, commission: rate)
                    last = (rate, computed)
                    proceeds = computed
                }
            }
            schedule.append((due, proceeds))
            step += 1
            due = months >= 1 ? InstantFormat.addingMonths(nextRenewalAt, months * step) : nextRenewalAt + duration * step
        }
        return schedule
    }
}
