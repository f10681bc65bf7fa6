import WinbackAppStore

/// All subscriptions as of `T`, built from the deduplicated transactions and renewal infos (README: The model in brief).
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
    public var productGroups: [String: String] { datedProductGroups.mapValues(\.group) }
    /// Product id → the latest purchase of that product and its subscription group id (the larger id, by code
    /// point, between two purchased at the same instant), so that two shards' groups combine (docs/sharding.md).
    public var datedProductGroups: [String: DatedProductGroup]
    /// `T`: the instant the day after the as-of date starts, in the report time zone.
    public var asOf: Int64
    /// Accepted notifications, one per `notificationUUID`, in no particular order (for `events_daily`).
    public var notificationEvents: [NotificationEvent] = []

    /// Builds the model from transactions in any order (grouped here by `originalTransactionId`).
    public init(
        transactions: some Sequence<SubscriptionTransaction>, renewals: [String: RenewalState], asOf: Int64, gracePeriodDays: Int
    ) {
        var groups: [CompactIdentifier: [SubscriptionTransaction]] = [:]
        for transaction in transactions { groups[CompactIdentifier(transaction.originalTransactionId), default: []].append(transaction) }
        // Distinct strings are distinct compact ids ("007" stays text, "7" is a number).
        let renewals = Dictionary(uniqueKeysWithValues: renewals.map { (CompactIdentifier($0.key), $0.value) })
        self.init(subscriptions: groups, renewals: renewals, asOf: asOf, gracePeriodDays: gracePeriodDays)
    }

    /// Keeps `events` (one per `notificationUUID`) and sets each subscription's ``SubscriptionTimeline/autoRenewDisabledAt``.
    public mutating func attach(_ events: [NotificationEvent]) {
        notificationEvents = events
        var switches: [CompactIdentifier: (off: Int64?, on: Int64?)] = [:]
        for event in events where event.signedDate < asOf {
            guard let subscription = event.subscription else { continue }
            if event.turnsAutoRenewOff {
                switches[subscription, default: (nil, nil)].off = max(switches[subscription]?.off ?? .min, event.signedDate)
            } else if event.turnsAutoRenewOn {
                switches[subscription, default: (nil, nil)].on = max(switches[subscription]?.on ?? .min, event.signedDate)
            }
        }
        guard !switches.isEmpty else { return }
        for index in timelines.indices {
            guard let (off, on) = switches[CompactIdentifier(timelines[index].originalTransactionId)], let off,
                (on ?? .min) <= off, timelines[index].renewal?.effectiveAutoRenewStatus(latest: timelines[index].latest) == 0
            else { continue }
            timelines[index].autoRenewDisabledAt = off
        }
    }

    /// Builds the model from transactions grouped by `originalTransactionId` (``Deduplicator/takeSubscriptions()``),
    /// releasing each group once its timeline is built so peak memory stays near one copy of the transactions.
    public init(
        subscriptions: consuming [CompactIdentifier: [SubscriptionTransaction]], renewals: [CompactIdentifier: RenewalState], asOf: Int64,
        gracePeriodDays: Int
    ) {
        var groups = subscriptions
        var future = 0
        var other = 0
        var productGroups: [String: DatedProductGroup] = [:]
        // By index: the counts read a field or two of each transaction without copying it.
        for group in groups.values {
            for index in group.indices {
                guard group[index].isAutoRenewable else {
                    other += 1
                    continue
                }
                let purchaseDate = group[index].purchaseDate
                guard purchaseDate < asOf else {
                    future += 1
                    continue
                }
                if let subscriptionGroup = group[index].subscriptionGroupIdentifier {
                    let productId = group[index].productId
                    productGroups[productId, default: DatedProductGroup(purchaseDate: .min, group: "")]
                        .combine(DatedProductGroup(purchaseDate: purchaseDate, group: subscriptionGroup))
                }
            }
        }
        let grace = Int64(gracePeriodDays) * InstantFormat.day
        let ids = groups.keys.sorted(by: CompactIdentifier.precedes)
        var timelines: [SubscriptionTimeline] = []
        timelines.reserveCapacity(ids.count)
        for id in ids {
            guard var group = groups.removeValue(forKey: id) else { continue }
            // Nearly every group is wholly in scope; the rest lose their other transactions in place. The
            // group is then handed to its timeline whole (moved, not copied).
            let isInScope = { (transaction: SubscriptionTransaction) in transaction.isAutoRenewable && transaction.purchaseDate < asOf }
            if !group.allSatisfy(isInScope) { group.removeAll { !isInScope($0) } }
            guard !group.isEmpty else { continue }
            // Ingest accepts only instants in range; a model built in code is clamped so nothing overflows.
            for index in group.indices where !group[index].hasInstantsInRange { group[index].clampInstants() }
            timelines.append(SubscriptionTimeline(transactions: consume group, renewal: renewals[id], asOf: asOf, graceMilliseconds: grace))
        }
        self.timelines = timelines
        self.future = future
        self.otherProductTypes = other
        self.datedProductGroups = productGroups
        self.asOf = asOf
    }

    /// Subscriptions that take part in every report but `subscriptions` (not Family Sharing).
    public var reportable: [SubscriptionTimeline] { timelines.filter { !$0.isFamilyShared } }
}
