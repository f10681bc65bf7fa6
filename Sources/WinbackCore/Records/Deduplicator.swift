/// Keeps the latest version of each transaction and renewal info (SPEC §5).
///
/// Transactions are keyed by `transactionId`, renewal infos by `originalTransactionId`; the version with
/// the greatest `signedDate` wins and ties go to the later one in input order (a refund re-signs the
/// same transaction with a `revocationDate`). Superseded versions are counted as `duplicates`.
/// Notifications are never deduplicated.
public struct Deduplicator: Sendable {
    /// The winning version of each transaction, in the model's compact form.
    public private(set) var transactions: [String: SubscriptionTransaction] = [:]
    /// The winning version of each subscription's renewal info.
    public private(set) var renewalInfos: [String: RenewalState] = [:]
    private var interner = StringInterner()
    /// Versions that lost to a later or newer-signed one.
    public private(set) var duplicates = 0

    public init() {}

    /// Adds an accepted payload in input order.
    public mutating func add(_ payload: AcceptedPayload) {
        switch payload {
        case .transaction(let payload):
            guard let id = payload.transactionId else { return }
            if let existing = transactions[id] {
                duplicates += 1
                guard (payload.signedDate ?? .min) >= existing.signedDate else { return }
            }
            transactions[id] = SubscriptionTransaction(payload, interner: &interner)
        case .renewalInfo(let payload):
            guard let id = payload.originalTransactionId else { return }
            if let existing = renewalInfos[id] {
                duplicates += 1
                guard (payload.signedDate ?? .min) >= existing.signedDate else { return }
            }
            renewalInfos[id] = RenewalState(payload, interner: &interner)
        case .notification:
            break
        }
    }
}
