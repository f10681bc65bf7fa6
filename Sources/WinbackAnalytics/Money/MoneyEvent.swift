import WinbackAppStore

/// One dated money event of a subscription (docs/money.md), its amounts already in the row currency.
public struct MoneyEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// A transaction with `price > 0` (and a currency), dated at its `purchaseDate`.
        case charge
        /// A charge revoked before `T`, dated at its `revocationDate`.
        case refund
        /// A transaction without `price` or `currency`, dated at its `purchaseDate`: counted, never summed.
        case unpriced
    }

    /// What happened.
    public var kind: Kind
    /// When, epoch ms.
    public var instant: Int64
    /// The transaction's index in its timeline.
    public var transaction: Int
    /// The amount in the row currency, milliunits; `nil` when unpriced or unconverted (no rate that day).
    public var amount: Int64?
    /// The estimated proceeds of ``amount``; `nil` exactly when `amount` is.
    public var proceeds: Int64?

    /// An event from its parts.
    public init(kind: Kind, instant: Int64, transaction: Int, amount: Int64?, proceeds: Int64?) {
        self.kind = kind
        self.instant = instant
        self.transaction = transaction
        self.amount = amount
        self.proceeds = proceeds
    }

    /// Charges and refunds without a rate at their day (counted in `unconverted`).
    public var isUnconverted: Bool { kind != .unpriced && amount == nil }
}

extension SubscriptionTimeline {
    /// Whether the subscription is a sale (docs/money.md): its ownership (`X`'s) is PURCHASED, not family-shared access.
    public var isSale: Bool { latest.inAppOwnershipType == InAppOwnershipType.purchased.rawValue }

    /// The subscription's charges, refunds and unpriced transactions in transaction order (a refund right
    /// after its charge), amounts in `context`'s row currency. Empty when it is not a sale.
    ///
    /// Example: a 9.99 EUR charge on 2026-03-01 in a storefront with 19 % tax, refunded half on 2026-03-10,
    /// reporting in EUR: charge 9990 with proceeds `9990 / 1.19 × 0.7` = 5876, refund 4995 with proceeds 2938.
    public func moneyEvents(_ context: MoneyContext) -> [MoneyEvent] {
        guard isSale else { return [] }
        var events: [MoneyEvent] = []
        for index in transactions.indices {
            let transaction = transactions[index]
            guard let price = transaction.price, let currency = transaction.currency else {
                events.append(
                    MoneyEvent(kind: .unpriced, instant: transaction.purchaseDate, transaction: index, amount: nil, proceeds: nil))
                continue
            }
            guard price > 0 else { continue }
            let tax = context.settings.taxRate(storefront: transaction.storefront)
            let commission = context.settings.commission.rate(serviceDays: serviceDays(at: transaction.purchaseDate))
            let charge = context.convert(price, currency: currency, at: transaction.purchaseDate)
            events.append(
                MoneyEvent(
                    kind: .charge, instant: transaction.purchaseDate, transaction: index, amount: charge,
                    proceeds: charge.map { MoneyMath.proceeds($0, tax: tax, commission: commission) }))
            guard let revoked = revocation(index) else { continue }
            let refunded = transaction.revocationPercentage.map { MoneyMath.proportion(price, Int64($0), of: 100_000) } ?? price
            let refund = context.convert(refunded, currency: currency, at: revoked)
            events.append(
                MoneyEvent(
                    kind: .refund, instant: revoked, transaction: index, amount: refund,
                    proceeds: refund.map { MoneyMath.proceeds($0, tax: tax, commission: commission) }))
        }
        return events
    }

    /// Paid service days at `instant` (docs/money.md, Apple's rule for the reduced commission): the paid
    /// coverages starting before `instant`, cut there, merged into runs across gaps of at most 60 days;
    /// the last run's paid time in whole days, or 0 when that run ended more than 60 days before `instant`.
    ///
    /// Example: paid Jan 1 – Jul 1, a gap of 45 days, paid again from Aug 15: on Sep 15 the run has
    /// 181 + 31 = 212 service days; after a gap of 61 days it would have started again at 31.
    public func serviceDays(at instant: Int64) -> Int64 {
        let maximumGap = 60 * InstantFormat.day
        var runEnd: Int64? = nil
        var paid: Int64 = 0
        for index in transactions.indices {
            guard transactions[index].purchaseDate < instant else { break }
            guard transactions[index].isPaid, let coverage = coverage(index) else { continue }
            let start = coverage.lowerBound
            let end = min(coverage.upperBound, instant)
            if let last = runEnd, start - last <= maximumGap {
                paid += max(0, end - max(start, last))
                runEnd = max(last, end)
            } else {
                paid = end - start
                runEnd = end
            }
        }
        guard let runEnd, instant - runEnd <= maximumGap else { return 0 }
        return paid / InstantFormat.day
    }
}
