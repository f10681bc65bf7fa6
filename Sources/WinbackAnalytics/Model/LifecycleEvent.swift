import WinbackAppStore

/// Something that happened to a subscription on one day, as marketing tools hear of it (docs/deliveries.md: Lifecycle
/// events): a line of `lifecycle_events.ndjson.gz` and, through `winback deliver`, a webhook, Segment or Braze event.
///
/// Each kind, read from the model at `T` for the day `[start, T)` of the as-of date in the report time zone:
/// - `subscription.auto_renew_disabled` at ``SubscriptionTimeline/autoRenewDisabledAt`` (a notification turned
///   auto-renew off and nothing turned it back on);
/// - `subscription.billing_issue` at the latest transaction's `expiresDate`, when the latest renewal info says
///   the subscription is in billing retry (the renewal due then failed);
/// - `subscription.expired` at each lapse `L`, with the lapse's reason;
/// - `subscription.refunded` at each transaction's `revocationDate`;
/// - `subscription.reactivated` at the start of each span after the first (a lapsed subscription paid again).
///
/// Family Sharing subscriptions have none (they take part in no campaign). Example: a monthly plan whose
/// renewal info says `expirationIntent` 1 lapses at 2026-11-27T10:00:00Z; with `D` = 2026-11-27 (UTC) it has
/// one event, `subscription.expired` with reason `voluntary`, occurred at that instant.
public struct LifecycleEvent: Sendable, Equatable {
    /// The kinds of event, by their `type`.
    public enum Kind: String, CaseIterable, Sendable {
        case autoRenewDisabled = "subscription.auto_renew_disabled"
        case billingIssue = "subscription.billing_issue"
        case expired = "subscription.expired"
        case refunded = "subscription.refunded"
        case reactivated = "subscription.reactivated"

        /// Segment's event name: `Subscription Expired` for `subscription.expired`.
        public var segmentName: String {
            rawValue.split { $0 == "." || $0 == "_" }.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        }

        /// Braze's event name: `subscription_expired` for `subscription.expired`.
        public var brazeName: String { String(rawValue.map { $0 == "." ? "_" : $0 }) }
    }

    /// What happened.
    public var kind: Kind
    /// When, epoch ms.
    public var occurredAt: Int64
    /// The subscription's `originalTransactionId`.
    public var originalTransactionId: String
    /// The account the day's offers are keyed by: the latest transaction's `appAccountToken`, lower-cased, else the
    /// `originalTransactionId`.
    public var accountKey: String
    /// The latest transaction's `appAccountToken`, lower-cased, or `nil`.
    public var appAccountToken: String?
    /// The product of the transaction the event concerns (the lapsed, refunded or reactivating one; else the latest).
    public var productId: String
    /// That transaction's `storefront`, or `nil`.
    public var storefront: String?
    /// The lapse reason of a `subscription.expired` event; `nil` for the others.
    public var reason: LapseReason?

    /// An event from its fields.
    public init(
        kind: Kind, occurredAt: Int64, originalTransactionId: String, accountKey: String, appAccountToken: String?, productId: String,
        storefront: String?, reason: LapseReason?
    ) {
        self.kind = kind
        self.occurredAt = occurredAt
        self.originalTransactionId = originalTransactionId
        self.accountKey = accountKey
        self.appAccountToken = appAccountToken
        self.productId = productId
        self.storefront = storefront
        self.reason = reason
    }

    /// What the stable `id` hashes: `"<type>:<originalTransactionId>:<occurredAt epoch ms>"` (its SHA-256, lower-case
    /// hex, first 32 digits, is the id).
    public var identity: String { "\(kind.rawValue):\(originalTransactionId):\(occurredAt)" }

    /// The line of `lifecycle_events.ndjson.gz`, with `id`: `{"id","type","occurredAt","originalTransactionId",
    /// "accountKey","appAccountToken","productId","storefront","reason"}`, absent values `null`.
    public func line(id: String) -> String {
        JSONText.render(
            JSONText.object([
                ("id", .string(id)), ("type", .string(kind.rawValue)),
                ("occurredAt", .string(InstantFormat.iso8601(milliseconds: occurredAt))),
                ("originalTransactionId", .string(originalTransactionId)), ("accountKey", .string(accountKey)),
                ("appAccountToken", appAccountToken.map(JSONValue.string) ?? .null), ("productId", .string(productId)),
                ("storefront", storefront.map(JSONValue.string) ?? .null), ("reason", reason.map { .string($0.rawValue) } ?? .null),
            ]))
    }

    /// The events of `timeline` that occurred in `[start, timeline.asOf)`, ordered as ``precedes(_:_:)`` orders them.
    public static func events(of timeline: SubscriptionTimeline, since start: Int64) -> [LifecycleEvent] {
        guard !timeline.isFamilyShared else { return [] }
        let end = timeline.asOf
        let latest = timeline.latest
        let token = latest.appAccountToken.map(ByteSpelling.lowercased)
        let accountKey = timeline.accountKey
        func event(_ kind: Kind, at instant: Int64, transaction: Int, reason: LapseReason? = nil) -> LifecycleEvent? {
            guard start <= instant, instant < end else { return nil }
            let concerned = timeline.transactions[transaction]
            return LifecycleEvent(
                kind: kind, occurredAt: instant, originalTransactionId: timeline.originalTransactionId, accountKey: accountKey,
                appAccountToken: token, productId: concerned.productId, storefront: concerned.storefront, reason: reason)
        }
        var events: [LifecycleEvent] = []
        if let disabledAt = timeline.autoRenewDisabledAt,
            let found = event(.autoRenewDisabled, at: disabledAt, transaction: timeline.latestIndex)
        {
            events.append(found)
        }
        if timeline.renewal?.isInBillingRetry == true,
            let found = event(.billingIssue, at: latest.expiresDate, transaction: timeline.latestIndex)
        {
            events.append(found)
        }
        for (index, span) in timeline.spans.enumerated() {
            if let lapse = span.lapse, let found = event(.expired, at: lapse.at, transaction: lapse.lastCovering, reason: lapse.reason) {
                events.append(found)
            }
            if index > 0, let found = event(.reactivated, at: span.start, transaction: span.first) { events.append(found) }
        }
        for index in timeline.transactions.indices {
            if let revocation = timeline.revocation(index), let found = event(.refunded, at: revocation, transaction: index) {
                events.append(found)
            }
        }
        return events.sorted(by: precedes)
    }

    /// The file's order: by `occurredAt`, then `type`, then `originalTransactionId` by code point.
    public static func precedes(_ lhs: LifecycleEvent, _ rhs: LifecycleEvent) -> Bool {
        if lhs.occurredAt != rhs.occurredAt { return lhs.occurredAt < rhs.occurredAt }
        if lhs.kind != rhs.kind { return lhs.kind.rawValue < rhs.kind.rawValue }
        return CodePointOrder.less(lhs.originalTransactionId, rhs.originalTransactionId)
    }
}
