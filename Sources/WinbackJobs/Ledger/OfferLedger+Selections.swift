import Foundation
import GRDB
import WinbackIO
import WinbackReportPage

/// Selected accounts: per campaign, account key and day, with the offer signed for them.
extension OfferLedger {
    /// The stored selections of a campaign and day, in account-key order; empty when the day was never selected.
    public func selections(campaign: String, asOf: String) throws(JobError) -> [StoredSelection] {
        try wrap {
            try queue.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT * FROM selections WHERE campaign_id = ? AND as_of = ? ORDER BY account_key",
                    arguments: [campaign, asOf]
                ).map { row in try LedgerRow(row: row, table: "selections").selection() }
            }
        }
    }

    /// The selections of `campaign` whose as-of lies in `(after, through]` (dates `YYYY-MM-DD`), in account-key
    /// then as-of order.
    public func selections(campaign: String, after: String, through: String) throws(JobError) -> [StoredSelection] {
        try wrap {
            try queue.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT * FROM selections WHERE campaign_id = ? AND as_of > ? AND as_of <= ? ORDER BY account_key, as_of",
                    arguments: [campaign, after, through]
                ).map { row in try LedgerRow(row: row, table: "selections").selection() }
            }
        }
    }

    /// Account keys with an entry for `campaign` whose as-of is in `[from, until)` (dates `YYYY-MM-DD`).
    public func accounts(campaign: String, from: String, until: String) throws(JobError) -> Set<String> {
        try wrap {
            try queue.read { db in
                Set(
                    try String.fetchAll(
                        db, sql: "SELECT DISTINCT account_key FROM selections WHERE campaign_id = ? AND as_of >= ? AND as_of < ?",
                        arguments: [campaign, from, until]))
            }
        }
    }

    /// Stores a day's selections for several campaigns in one transaction.
    public func record(_ selections: [StoredSelection], runId: Int64) throws(JobError) {
        try wrap {
            try queue.write { db in try DayRecorder(runId: runId, database: db).record(selections) }
        }
    }

    /// Replaces the offers of existing selections (re-signing); one transaction.
    public func updateOffers(_ selections: [StoredSelection]) throws(JobError) {
        try wrap {
            try queue.write { db in
                for selection in selections {
                    try db.execute(
                        sql:
                            "UPDATE selections SET nonce = ?, timestamp_ms = ?, payload = ? WHERE campaign_id = ? AND account_key = ? AND as_of = ?",
                        arguments: [
                            selection.nonce, selection.timestampMilliseconds, selection.payload, selection.campaignId, selection.accountKey,
                            selection.asOf,
                        ])
                }
            }
        }
    }
}
