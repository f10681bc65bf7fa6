import WinbackAnalytics

/// Keeps the latest version of each transaction and renewal info (README: The model in brief), grouped by subscription.
///
/// Transactions are keyed by `transactionId` within their `originalTransactionId` (one group per
/// subscription, which is what the model needs, so no second copy is built), renewal infos by
/// `originalTransactionId`; the version with the greatest `signedDate` wins and ties go to the later one
/// in input order (a refund re-signs the same transaction with a `revocationDate`). Superseded versions
/// are counted as `duplicates`. Notifications are kept as events, one per `notificationUUID` (docs/notifications-and-commitments.md).
///
/// Memory: the transactions of a subscription share one ``SubscriptionIdentity``, and all transactions
/// share interned ``TransactionAttributes``.
public struct Deduplicator: Sendable {
    /// The winning versions of the transactions of each subscription, by `originalTransactionId`, in input order.
    ///
    /// Keyed by the compact form of the id: a 16-digit id is a heap string, so a `String` key cost a hash
    /// of its bytes and a pointer chase into a cold object on every probe of a 1.6 M-entry table.
    public private(set) var subscriptions: [CompactIdentifier: [SubscriptionTransaction]] = [:]
    /// The winning version of each subscription's renewal info, by `originalTransactionId` (compact).
    public private(set) var renewalInfos: [CompactIdentifier: RenewalState] = [:]
    /// One event per `notificationUUID`: the latest signed copy.
    public private(set) var notifications: [NotificationEvent.Key: NotificationEvent] = [:]
    /// Distinct transactions kept.
    public private(set) var transactionCount = 0
    /// Versions that lost to a later or newer-signed one.
    public private(set) var duplicates = 0
    private let compactor: PayloadCompactor
    /// The subscription the last transaction went to and its group's position in ``subscriptions``. An
    /// export lists a subscription's transactions together (5 lines in 6 of the generated datasets follow
    /// one of the same subscription), so the next one is usually merged at this position, without hashing
    /// its key and probing a 1.6 M-entry table. A position stays valid until a key is inserted or removed.
    private var lastGroup: (key: CompactIdentifier, position: [CompactIdentifier: [SubscriptionTransaction]].Index)?

    /// `compactor` is the one the verifying threads use, so all stored transactions share its attributes.
    public init(compactor: PayloadCompactor = PayloadCompactor()) {
        self.compactor = compactor
    }

    /// Adds an accepted payload in input order.
    public mutating func add(_ payload: AcceptedPayload) {
        add(compactor.keep(payload))
    }

    /// Adds the kept form of an accepted payload in input order.
    public mutating func add(_ kept: KeptPayload) {
        switch kept {
        case .transaction(let transaction):
            let key = CompactIdentifier(transaction.originalTransactionId)
            let position: [CompactIdentifier: [SubscriptionTransaction]].Index
            if let last = lastGroup, last.key == key {
                position = last.position
            } else if let found = subscriptions.index(forKey: key) {
                position = found
            } else {
                subscriptions[key] = [transaction]
                transactionCount += 1
                lastGroup = subscriptions.index(forKey: key).map { (key, $0) }
                return
            }
            lastGroup = (key, position)
            // The group is updated in place, through its position.
            if Self.merge(transaction, into: &subscriptions.values[position], duplicates: &duplicates) {
                transactionCount += 1
            }
        case .renewalInfo(let renewal):
            Self.keepNewer(renewal, in: &renewalInfos[renewal.originalId], duplicates: &duplicates)
        case .notification(let event):
            // Identical copies (webhook and history) share the UUID: one event each, the latest signed
            // (ties: the later in input order). Not counted as duplicates, which are about records.
            if let existing = notifications[event.key], existing.signedDate > event.signedDate { break }
            notifications[event.key] = event
        case .ignored:
            break
        }
    }

    /// Adds `transaction` to its subscription's `group` (never empty: `add(_:)` starts a
    /// new subscription's group with its first transaction): it shares the group's identity and replaces an
    /// older-signed version of itself. Returns whether it is a new transaction.
    private static func merge(_ transaction: SubscriptionTransaction, into group: inout [SubscriptionTransaction], duplicates: inout Int)
        -> Bool
    {
        var transaction = transaction
        transaction.shareIdentity(with: group[0])
        guard let position = group.firstIndex(where: { $0.transactionIdentifier == transaction.transactionIdentifier }) else {
            group.append(transaction)
            return true
        }
        duplicates += 1
        if transaction.signedDate >= group[position].signedDate { group[position] = transaction }
        return false
    }

    /// Stores `renewal` in `slot` unless the stored version was signed later; a stored version is a duplicate.
    private static func keepNewer(_ renewal: RenewalState, in slot: inout RenewalState?, duplicates: inout Int) {
        if let existing = slot {
            duplicates += 1
            guard renewal.signedDate >= existing.signedDate else { return }
        }
        slot = renewal
    }

    /// The kept version of transaction `id` of subscription `originalTransactionId`.
    public func transaction(_ id: String, of originalTransactionId: String) -> SubscriptionTransaction? {
        subscriptions[CompactIdentifier(originalTransactionId)]?.first { $0.transactionIdentifier == CompactIdentifier(id) }
    }

    /// Hands the notification events over, one per `notificationUUID`, in no particular order (everything
    /// built from them is a count or a maximum), leaving none here.
    public mutating func takeNotificationEvents() -> [NotificationEvent] {
        defer { notifications = [:] }
        return Array(notifications.values)
    }

    /// Hands the renewal infos over (leaving none here), so they are freed once the model is built.
    public mutating func takeRenewalInfos() -> [CompactIdentifier: RenewalState] {
        defer { renewalInfos = [:] }
        return renewalInfos
    }

    /// Hands the grouped transactions over (leaving none here), so the model can release them as it goes.
    public mutating func takeSubscriptions() -> [CompactIdentifier: [SubscriptionTransaction]] {
        defer {
            subscriptions = [:]
            lastGroup = nil
        }
        return subscriptions
    }
}
