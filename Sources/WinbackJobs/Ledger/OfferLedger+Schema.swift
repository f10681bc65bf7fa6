import Foundation
import GRDB
import WinbackAnalytics
import WinbackCore
import WinbackIO
import WinbackReportPage

/// The ledger's tables and their migrations, one per schema version (docs/campaigns.md).
extension OfferLedger {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE runs (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        as_of TEXT NOT NULL,
                        started_at TEXT NOT NULL,
                        finished_at TEXT,
                        outcome TEXT,
                        counts TEXT
                    );
                    CREATE TABLE selections (
                        campaign_id TEXT NOT NULL,
                        account_key TEXT NOT NULL,
                        as_of TEXT NOT NULL,
                        original_transaction_id TEXT NOT NULL,
                        variant TEXT NOT NULL,
                        nonce TEXT,
                        timestamp_ms INTEGER,
                        row TEXT NOT NULL,
                        payload TEXT,
                        run_id INTEGER REFERENCES runs(id),
                        PRIMARY KEY (campaign_id, account_key, as_of)
                    );
                    CREATE INDEX selections_by_day ON selections(campaign_id, as_of);
                    """)
        }
        // v2 (docs/campaigns.md): each selection names its audience and offer, so campaign outcomes can be measured
        // from the ledger alone; a v1 ledger gets them from the eligible_accounts row it kept.
        migrator.registerMigration("v2") { db in
            try db.execute(sql: "ALTER TABLE selections ADD COLUMN audience TEXT")
            try db.execute(sql: "ALTER TABLE selections ADD COLUMN offer_identifier TEXT")
            let rows = try Row.fetchAll(db, sql: "SELECT rowid, row FROM selections")
            for row in rows {
                let kept = (row["row"] as String?).flatMap(EligibleAccountRow.init(ledgerLine:))
                try db.execute(
                    sql: "UPDATE selections SET audience = ?, offer_identifier = ? WHERE rowid = ?",
                    arguments: [kept?.audience, kept?.offerIdentifier, row["rowid"] as Int64])
            }
        }
        // v3 (docs/campaigns.md): the one-time offer code given with a selection — unique, so no code can ever go to two
        // accounts — and each offer-code campaign-day's count of treatment accounts left without a code.
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "ALTER TABLE selections ADD COLUMN offer_code TEXT")
            try db.execute(sql: "CREATE UNIQUE INDEX selections_by_code ON selections(offer_code) WHERE offer_code IS NOT NULL")
            try db.execute(
                sql: "CREATE TABLE code_shortfalls (campaign_id TEXT NOT NULL, as_of TEXT NOT NULL, codes_short INTEGER NOT NULL, "
                    + "PRIMARY KEY (campaign_id, as_of))")
        }
        // v4 (docs/campaigns.md): each webhook batch `winback deliver` had acknowledged, once.
        migrator.registerMigration("v4") { db in
            try db.execute(
                sql: "CREATE TABLE deliveries (as_of TEXT NOT NULL, campaign_id TEXT NOT NULL, batch INTEGER NOT NULL, "
                    + "offers INTEGER NOT NULL, batch_size INTEGER NOT NULL, status INTEGER NOT NULL, acknowledged_at TEXT NOT NULL, "
                    + "PRIMARY KEY (as_of, campaign_id, batch))")
        }
        // v5 (docs/deliveries.md): each batch a Segment or Braze sink acknowledged, once per sink, day and batch number.
        migrator.registerMigration("v5") { db in
            try db.execute(
                sql: "CREATE TABLE sink_batches (sink TEXT NOT NULL, as_of TEXT NOT NULL, batch INTEGER NOT NULL, "
                    + "messages INTEGER NOT NULL, status INTEGER NOT NULL, acknowledged_at TEXT NOT NULL, "
                    + "PRIMARY KEY (sink, as_of, batch))")
        }
        // v6 (docs/campaigns.md): each selection keeps its eligible_accounts row's typed values, which a re-run of the
        // day publishes (as CSV and Parquet) without reading the CSV line back; kept rows get theirs from that line, once.
        migrator.registerMigration("v6") { db in
            try db.execute(sql: "ALTER TABLE selections ADD COLUMN row_values BLOB")
            let rows = try Row.fetchAll(db, sql: "SELECT rowid, row FROM selections")
            for row in rows {
                guard let line: String = row["row"], let values = EligibleAccountRow(ledgerLine: line) else { continue }
                try db.execute(
                    sql: "UPDATE selections SET row_values = ? WHERE rowid = ?",
                    arguments: [Data(EncodedRow(values).bytes), row["rowid"] as Int64])
            }
        }
        // v7 (docs/refunds.md): each refund request's decision, recorded before its answer is sent, and its answer after.
        migrator.registerMigration("v7") { db in
            try db.execute(
                sql: "CREATE TABLE refund_answers (notification_uuid TEXT PRIMARY KEY, transaction_id TEXT, policy_id TEXT, "
                    + "preference TEXT NOT NULL, delivery_status TEXT NOT NULL, sample_content_provided INTEGER NOT NULL, "
                    + "status TEXT NOT NULL, decided_at INTEGER NOT NULL, answered_at INTEGER, http_status INTEGER, error_code INTEGER)")
        }
        return migrator
    }
}
