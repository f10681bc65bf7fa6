import WinbackAnalytics

/// One selected account as the ledger keeps it: enough to re-emit the same report row and offer.
public struct StoredSelection: Sendable, Equatable {
    /// The campaign.
    public var campaignId: String
    /// The account key (lower-case app account token, else `originalTransactionId`).
    public var accountKey: String
    /// The as-of day, `YYYY-MM-DD`.
    public var asOf: String
    /// The subscription chosen for the account.
    public var originalTransactionId: String
    /// `treatment` or `holdout`.
    public var variant: String
    /// The offer's nonce (lower-case UUID) and timestamp (epoch ms); `nil` for holdout and unsigned audiences.
    public var nonce: String?
    /// The offer's timestamp, epoch ms.
    public var timestampMilliseconds: Int64?
    /// The `eligible_accounts` CSV line (with its newline), a readable copy of ``rowValues`` for whoever opens the
    /// ledger with `sqlite3`.
    public var row: String
    /// The `eligible_accounts` row's typed values (``EncodedRow``), which a re-run of the day publishes again;
    /// `nil` only for a selection a v5 ledger kept with a row that does not read back (never re-emitted then).
    public var rowValues: EncodedRow? = nil
    /// The `offers.ndjson` line (without newline), when an offer was signed.
    public var payload: String?
    /// The campaign's audience raw value (`win_back`, …), for measuring outcomes (docs/campaigns.md).
    public var audience: String? = nil
    /// The offer the account was selected for, if any.
    public var offerIdentifier: String? = nil
    /// The one-time offer code given to the account (docs/campaigns.md); `nil` otherwise (a custom code is not kept here).
    public var offerCode: String? = nil
}

extension StoredSelection {
    /// A selection from its parts (audience, offer and code unset).
    package init(
        campaignId: String, accountKey: String, asOf: String, originalTransactionId: String, variant: String, nonce: String?,
        timestampMilliseconds: Int64?, row: String, payload: String?
    ) {
        self.campaignId = campaignId
        self.accountKey = accountKey
        self.asOf = asOf
        self.originalTransactionId = originalTransactionId
        self.variant = variant
        self.nonce = nonce
        self.timestampMilliseconds = timestampMilliseconds
        self.row = row
        self.payload = payload
    }
}
