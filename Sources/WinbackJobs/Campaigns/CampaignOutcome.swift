/// What the campaign stage produced for the reports and the summary.
struct CampaignOutcome {
    /// `eligible_accounts` lines, sorted by campaign id then account key.
    var eligibleRows: [String] = []
    /// `offers.ndjson` lines, sorted by campaign id then account key.
    var offerLines: [String] = []
    /// Per campaign, in id order: eligible, treatment, holdout, signed.
    var perCampaign: [(id: String, eligible: Int, treatment: Int, holdout: Int, signed: Int)] = []
    /// Selections to write to the ledger (new days only).
    var newSelections: [StoredSelection] = []
}
