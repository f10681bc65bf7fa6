import WinbackCore

/// What the ledger says about one campaign before the stage runs: the day's stored selections (a re-run
/// re-emits them) and the accounts still cooling down. Read up front, because the stage then runs inside
/// the ledger's write transaction.
struct CampaignPlan {
    var campaign: Campaign
    /// The campaign's selections for the as-of day, in account-key order; empty for a new day.
    var stored: [StoredSelection]
    /// Account keys selected by the campaign within its cooldown before the as-of day.
    var coolingDown: Set<String>
    /// An offer-code campaign's stored day: the treatment accounts it left without a code (docs/campaigns.md).
    var codesShort = 0
}
