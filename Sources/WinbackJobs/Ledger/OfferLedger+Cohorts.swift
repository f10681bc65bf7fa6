import Foundation
import GRDB
import WinbackCore
import WinbackIO
import WinbackReportPage

/// Campaign-outcome cohorts: each account in the cohort of its first selection by a campaign.
extension OfferLedger {
    /// The cohorts selected on days `S` with `from ≤ S < until` (dates `YYYY-MM-DD`), by campaign and day;
    /// `windowStart` gives `T_S` for a day. An account is in the cohort of its first selection by the
    /// campaign only (docs/campaigns.md): a later re-selection is a re-offer, not counted again.
    public func cohorts(from: String, until: String, windowStart: (String) -> Int64) throws(JobError) -> [CampaignCohort] {
        try wrap { try queue.read { db in try Self.cohorts(db, from: from, until: until, windowStart: windowStart) } }
    }

    /// ``cohorts(from:until:windowStart:)`` of the ledger at `path`, opened read-only and without its lock (a shard
    /// measuring campaign outcomes while no merge writes the ledger; docs/sharding.md); empty when there is no
    /// ledger there.
    public static func cohorts(readingOnly path: String, from: String, until: String, windowStart: (String) -> Int64) throws(JobError)
        -> [CampaignCohort]
    {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(10)
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in try cohorts(db, from: from, until: until, windowStart: windowStart) }
        } catch let damage as LedgerRow.Damage {
            throw .io(IOError(path: path, reason: "the offer ledger is damaged: \(damage); restore it from a backup"))
        } catch {
            throw .io(IOError(path: path, reason: "offer ledger: \(error)"))
        }
    }

    private static func cohorts(_ db: Database, from: String, until: String, windowStart: (String) -> Int64) throws -> [CampaignCohort] {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT campaign_id, as_of, original_transaction_id, variant, audience, offer_identifier FROM selections AS s
                WHERE as_of >= ? AND as_of < ?
                  AND as_of = (SELECT MIN(as_of) FROM selections AS f
                               WHERE f.campaign_id = s.campaign_id AND f.account_key = s.account_key)
                ORDER BY campaign_id, as_of, account_key
                """, arguments: [from, until])
        var cohorts: [CampaignCohort] = []
        while let stored = try rows.next() {
            let row = LedgerRow(row: stored, table: "selections")
            let campaign = try row.text("campaign_id")
            let day = try row.text("as_of")
            if cohorts.last?.campaignId != campaign || cohorts.last?.selectedOn != day {
                cohorts.append(
                    CampaignCohort(
                        campaignId: campaign, selectedOn: day, windowStart: windowStart(day),
                        audience: try row.optionalText("audience") ?? "",
                        members: []))
            }
            let variant = EligibleAccount.Variant(rawValue: try row.text("variant")) ?? .treatment
            cohorts[cohorts.count - 1].members.append(
                CampaignCohort.Member(
                    originalTransactionId: try row.text("original_transaction_id"), variant: variant,
                    offerIdentifier: try row.optionalText("offer_identifier")))
        }
        return cohorts
    }
}
