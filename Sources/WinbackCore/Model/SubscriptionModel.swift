/// All subscriptions as of `T`, built from the deduplicated transactions and renewal infos (SPEC §5, §10).
///
/// Only auto-renewable subscription transactions build subscriptions (others are counted as
/// `otherProductTypes`); transactions purchased at or after `T` are ignored (counted as `future`); a
/// renewal info without an in-scope transaction is ignored.
public struct SubscriptionModel: Sendable {
    /// One timeline per subscription, ordered by `originalTransactionId` (identifier order).
    public var timelines: [SubscriptionTimeline]
    /// Distinct subscription transactions purchased at or after `T`.
    public var future: Int
    /// Distinct transactions that are not auto-renewable subscriptions.
    public var otherProductTypes: Int
    /// Product id → subscription group id (from the latest transaction of that product).
    public var productGroups: [String: String]
    /// `T`: the instant the day after the as-of date starts, in the report time zone.
    public var asOf: Int64

    public init(
        transactions: some Sequence<SubscriptionTransaction>, renewals: [String: RenewalState], asOf: Int64, gracePeriodDays: Int
    ) {
        var groups: [String: [SubscriptionTransaction]] = [:]
        var future = 0
        var other = 0
        var productGroups: [String: (Int64, String)] = [:]
        for transaction in transactions {
            guard transaction.isAutoRenewable else {
                other += 1
                continue
            }
            guard transaction.purchaseDate < asOf else {
                future += 1
                continue
            }
            groups[transaction.originalTransactionId, default: []].append(transaction)
            if let group = transaction.subscriptionGroupId {
                let known = productGroups[transaction.productId]
                if known == nil || known?.0 ?? .min <= transaction.purchaseDate {
                    productGroups[transaction.productId] = (transaction.purchaseDate, group)
                }
            }
        }
        let grace = Int64(gracePeriodDays) * InstantFormat.day
        self.timelines = groups.keys.map(IdentifierOrder.Key.init).sorted().map(\.text).map { id in
            SubscriptionTimeline(transactions: groups[id] ?? [], renewal: renewals[id], asOf: asOf, graceMilliseconds: grace)
        }
        self.future = future
        self.otherProductTypes = other
        self.productGroups = productGroups.mapValues(\.1)
        self.asOf = asOf
    }

    /// Subscriptions that take part in every report but `subscriptions` (not Family Sharing).
    public var reportable: [SubscriptionTimeline] { timelines.filter { !$0.isFamilyShared } }
}
