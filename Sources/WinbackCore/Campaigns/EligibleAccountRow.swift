import WinbackAnalytics

/// A row of `eligible_accounts` (docs/campaigns.md): one account a campaign selected today. The ledger keeps its
/// CSV line with the selection (``init(ledgerLine:)`` reads it back when the day is emitted again), so a re-run
/// publishes the same rows.
public struct EligibleAccountRow: TableRow, Equatable {
    /// `campaign_id`.
    public var campaignId: String?
    /// `account_key`.
    public var accountKey: String?
    /// `original_transaction_id`.
    public var originalTransactionId: String?
    /// `variant`: `treatment` or `holdout`.
    public var variant: String?
    /// `audience`.
    public var audience: String?
    /// `product_id`.
    public var productId: String?
    /// `offer_identifier`; `nil` for audiences without one.
    public var offerIdentifier: String?
    /// `paid_days`.
    public var paidDays: Int64?
    /// `days_since_lapse`; `nil` when the subscription has not lapsed.
    public var daysSinceLapse: Int64?
    /// `days_to_expiry`; `nil` when not active.
    public var daysToExpiry: Int64?
    /// `lapse_reason`; `nil` when the last span has not ended.
    public var lapseReason: String?

    /// A row from its values.
    public init(
        campaignId: String?, accountKey: String?, originalTransactionId: String?, variant: String?, audience: String?, productId: String?,
        offerIdentifier: String?, paidDays: Int64?, daysSinceLapse: Int64?, daysToExpiry: Int64?, lapseReason: String?
    ) {
        self.campaignId = campaignId
        self.accountKey = accountKey
        self.originalTransactionId = originalTransactionId
        self.variant = variant
        self.audience = audience
        self.productId = productId
        self.offerIdentifier = offerIdentifier
        self.paidDays = paidDays
        self.daysSinceLapse = daysSinceLapse
        self.daysToExpiry = daysToExpiry
        self.lapseReason = lapseReason
    }

    /// The row the ledger kept as its CSV line (``CSVFormat/line(_:)`` of ``cells``), or `nil` when the line does
    /// not hold this table's columns with integers where they belong.
    public init?(ledgerLine line: String) {
        let fields = CSVFormat.fields(of: line)
        guard fields.count == ReportSchema.eligibleAccounts.columns.count else { return nil }
        func integer(_ index: Int) -> Int64?? {
            guard let text = fields[index] else { return .some(nil) }
            return Int64(text).map { .some($0) }
        }
        guard let paidDays = integer(7), let daysSinceLapse = integer(8), let daysToExpiry = integer(9) else { return nil }
        self.init(
            campaignId: fields[0], accountKey: fields[1], originalTransactionId: fields[2], variant: fields[3], audience: fields[4],
            productId: fields[5], offerIdentifier: fields[6], paidDays: paidDays, daysSinceLapse: daysSinceLapse,
            daysToExpiry: daysToExpiry,
            lapseReason: fields[10])
    }

    /// Hands the row's values to `fields`, in the schema's column order.
    public func write(to fields: inout some RowFields) {
        for text in [campaignId, accountKey, originalTransactionId, variant, audience, productId, offerIdentifier] { fields.text(text) }
        fields.integer(paidDays)
        fields.integer(daysSinceLapse)
        fields.integer(daysToExpiry)
        fields.text(lapseReason)
    }
}
