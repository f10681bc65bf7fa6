/// Keeps the latest version of each transaction and renewal info (SPEC §5).
///
/// Transactions are keyed by `transactionId`, renewal infos by `originalTransactionId`; the version with
/// the greatest `signedDate` wins and ties go to the later one in input order (a refund re-signs the
/// same transaction with a `revocationDate`). Superseded versions are counted as `duplicates`.
/// Notifications are never deduplicated.
public struct Deduplicator: Sendable {
    public private(set) var transactions: [String: JWSTransactionDecodedPayload] = [:]
    public private(set) var renewalInfos: [String: JWSRenewalInfoDecodedPayload] = [:]
    /// Versions that lost to a later or newer-signed one.
    public private(set) var duplicates = 0

    public init() {}

    /// Adds an accepted payload in input order.
    public mutating func add(_ payload: AcceptedPayload) {
        switch payload {
        case .transaction(let transaction):
            guard let id = transaction.transactionId else { return }
            if let existing = transactions[id] {
                duplicates += 1
                if (transaction.signedDate ?? .min) >= (existing.signedDate ?? .min) { transactions[id] = transaction }
            } else {
                transactions[id] = transaction
            }
        case .renewalInfo(let renewalInfo):
            guard let id = renewalInfo.originalTransactionId else { return }
            if let existing = renewalInfos[id] {
                duplicates += 1
                if (renewalInfo.signedDate ?? .min) >= (existing.signedDate ?? .min) { renewalInfos[id] = renewalInfo }
            } else {
                renewalInfos[id] = renewalInfo
            }
        case .notification:
            break
        }
    }
}
