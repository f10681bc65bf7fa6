/// One selected account as the ledger keeps it: enough to re-emit the same report row and offer.
public struct StoredSelection: Sendable, Equatable {
    public var campaignId: String
    public var accountKey: String
    public var asOf: String
    public var originalTransactionId: String
    /// `treatment` or `holdout`.
    public var variant: String
    /// The offer's nonce (lower-case UUID) and timestamp (epoch ms); `nil` for holdout and unsigned audiences.
    public var nonce: String?
    public var timestampMilliseconds: Int64?
    /// The `eligible_accounts` CSV line (with its newline).
    public var row: String
    /// The `offers.ndjson` line (without newline), when an offer was signed.
    public var payload: String?
}
