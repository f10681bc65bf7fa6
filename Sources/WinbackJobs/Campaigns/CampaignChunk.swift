import WinbackAnalytics

/// A slice of one campaign's output, in account-key order: the campaign stage hands these out as it signs,
/// so a run holds one chunk of signed offers at a time rather than the whole day's.
struct CampaignChunk {
    /// `eligible_accounts` rows, as the ledger keeps their values.
    var eligibleRows: [EncodedRow] = []
    /// `offers.ndjson` lines (without newline).
    var offerLines: [String] = []
    /// Selections to write to the ledger (new days only, and only when signing).
    var newSelections: [StoredSelection] = []
}
