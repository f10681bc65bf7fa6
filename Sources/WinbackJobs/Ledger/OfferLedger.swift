import Foundation
import GRDB
import WinbackCore
import WinbackIO

/// The offer ledger (docs/campaigns.md): an SQLite database of runs and selected accounts, created on first use and
/// migrated by schema version. Unique per (campaign, account key, as-of). A day's selections are written in
/// one transaction, so a crash never leaves half a day; a re-run of the day reads them back instead of
/// selecting and signing again.
///
/// One run at a time uses a ledger: it holds `<ledger>.lock` (an OS lock that dies with the process) while
/// the ledger is open, so two runs of one day with different `--out` sharing a ledger cannot interleave
/// (the second exits 75 naming the ledger). An empty ledger file is refused (74): a ledger is created whole
/// (``create(_:)``), so an empty one was truncated.
public final class OfferLedger {
    private let queue: DatabaseQueue
    private let lock: RunLock
    /// The SQLite file.
    public let path: String

    /// Opens (and creates or migrates) the ledger at `path`, holding its lock (``JobError/locked`` when another run has it).
    public init(path: String, startedAt: String = "") throws(JobError) {
        self.path = path
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        } catch {
            throw .io(IOError(path: path, reason: "cannot create the ledger's directory (\(error.localizedDescription))"))
        }
        do {
            lock = try RunLock(path: path + ".lock", guarding: "the ledger \(path)", startedAt: startedAt)
        } catch {
            throw JobError(error)
        }
        if !FileManager.default.fileExists(atPath: path) { try Self.create(path) }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size == 0 {
            throw .io(
                IOError(
                    path: path, reason: "the offer ledger is an empty file (damaged or truncated): restore it from a backup or remove it"))
        }
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            // 16 KiB pages for a new ledger (no effect on an existing one): a selection is ~1.3 KB, so 4 KiB
            // pages held two and left a quarter empty (a larger file and more CPU; docs/performance.md).
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA page_size = \(OfferLedger.pageSize)") }
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try Self.migrator.migrate(queue)
        } catch {
            throw .io(IOError(path: path, reason: "cannot open the offer ledger (\(error))"))
        }
    }

    /// Creates a new ledger whole: built and migrated beside `path`, then renamed into place, so a run killed
    /// while creating it leaves no ledger or a complete one — never the empty file that SQLite's own creation
    /// would leave, and that ``init(path:startedAt:)`` refuses as a truncated ledger.
    private static func create(_ path: String) throws(JobError) {
        let temporary = (path as NSString).deletingLastPathComponent + "/." + (path as NSString).lastPathComponent + ".\(getpid()).tmp"
        do {
            unlink(temporary)
            var configuration = Configuration()
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA page_size = \(OfferLedger.pageSize)") }
            let queue = try DatabaseQueue(path: temporary, configuration: configuration)
            try migrator.migrate(queue)
            try queue.close()
        } catch {
            unlink(temporary)
            throw .io(IOError(path: path, reason: "cannot create the offer ledger (\(error))"))
        }
        let descriptor = open(temporary, O_RDONLY)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .io(IOError(path: path, reason: "cannot move the new offer ledger into place (\(reason))"))
        }
    }

    /// Bytes per page of a ledger this type creates.
    static let pageSize = 16384

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
                let fields = CSVFormat.fields(of: row["row"])
                try db.execute(
                    sql: "UPDATE selections SET audience = ?, offer_identifier = ? WHERE rowid = ?",
                    arguments: [Self.field(fields, "audience"), Self.field(fields, "offer_identifier"), row["rowid"] as Int64])
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
        return migrator
    }

    /// The value of `column` in a row of ``ReportSchema/eligibleAccounts``.
    static func field(_ fields: [String?], _ column: String) -> String? {
        guard let index = ReportSchema.eligibleAccounts.columns.firstIndex(where: { $0.name == column }), index < fields.count else {
            return nil
        }
        return fields[index]
    }

    private func wrap<T>(_ body: () throws -> T) throws(JobError) -> T {
        do {
            return try body()
        } catch let damage as LedgerRow.Damage {
            throw .io(IOError(path: path, reason: "the offer ledger is damaged: \(damage); restore it from a backup"))
        } catch {
            throw .io(IOError(path: path, reason: "offer ledger: \(error)"))
        }
    }

    /// Records the start of a run; returns its id.
    public func beginRun(asOf: String, startedAt: String) throws(JobError) -> Int64 {
        try wrap {
            try queue.write { db in
                try db.execute(sql: "INSERT INTO runs (as_of, started_at) VALUES (?, ?)", arguments: [asOf, startedAt])
                return db.lastInsertedRowID
            }
        }
    }

    /// Records how a run ended.
    public func finishRun(_ id: Int64, finishedAt: String, outcome: String, counts: String) throws(JobError) {
        try wrap {
            try queue.write { db in
                try db.execute(
                    sql: "UPDATE runs SET finished_at = ?, outcome = ?, counts = ? WHERE id = ?",
                    arguments: [finishedAt, outcome, counts, id])
            }
        }
    }

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

    /// Every one-time offer code the ledger has given (any campaign, any day).
    public func heldCodes() throws(JobError) -> Set<String> {
        try wrap {
            try queue.read { db in Set(try String.fetchAll(db, sql: "SELECT offer_code FROM selections WHERE offer_code IS NOT NULL")) }
        }
    }

    /// The treatment accounts an offer-code campaign's day left without a code, as recorded with the day.
    public func codesShort(campaign: String, asOf: String) throws(JobError) -> Int {
        try wrap {
            try queue.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT codes_short FROM code_shortfalls WHERE campaign_id = ? AND as_of = ?", arguments: [campaign, asOf])
                    ?? 0
            }
        }
    }

    /// The batches of day `asOf` a receiver has acknowledged, by campaign, with the batch size they were cut with.
    public func deliveredBatches(asOf: String) throws(JobError) -> [String: (batchSize: Int, batches: Set<Int>)] {
        try wrap {
            try queue.read { db in
                var delivered: [String: (batchSize: Int, batches: Set<Int>)] = [:]
                for row in try Row.fetchAll(
                    db, sql: "SELECT campaign_id, batch, batch_size FROM deliveries WHERE as_of = ?", arguments: [asOf])
                {
                    let campaign: String = row["campaign_id"]
                    delivered[campaign, default: (row["batch_size"], [])].batches.insert(row["batch"])
                }
                return delivered
            }
        }
    }

    /// Records that the receiver acknowledged a batch (its primary key refuses a second record of it).
    public func recordDelivery(
        asOf: String, campaign: String, batch: Int, offers: Int, batchSize: Int, status: Int, acknowledgedAt: String
    ) throws(JobError) {
        try wrap {
            try queue.write { db in
                try db.execute(
                    sql: "INSERT INTO deliveries (as_of, campaign_id, batch, offers, batch_size, status, acknowledged_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    arguments: [asOf, campaign, batch, offers, batchSize, status, acknowledgedAt])
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

    /// Stores a day's selections for several campaigns in one transaction.
    public func record(_ selections: [StoredSelection], runId: Int64) throws(JobError) {
        try wrap {
            try queue.write { db in try DayRecorder(runId: runId, database: db).record(selections) }
        }
    }

    /// Runs `body` inside one write transaction that starts a run for `asOf` and lets `body` insert the
    /// day's selections as it produces them: all of them are stored when `body` returns, none if it
    /// throws or the process dies first. `body` must not call the ledger (its reads would re-enter the
    /// transaction); errors it throws come out unchanged.
    func recordDay<T>(asOf: String, startedAt: String, _ body: (DayRecorder) throws -> T) throws -> (runId: Int64, result: T) {
        do {
            return try queue.write { db in
                // A day is written in one transaction (~1.3 KB per selection); with SQLite's default 2 MB page
                // cache it spilled dirty pages to the file all along the day, a large share of a run's system
                // time. 64 MB bounds that at a fixed cost.
                try db.execute(sql: "PRAGMA cache_size = -65536")
                try db.execute(sql: "INSERT INTO runs (as_of, started_at) VALUES (?, ?)", arguments: [asOf, startedAt])
                let recorder = try DayRecorder(runId: db.lastInsertedRowID, database: db)
                return (recorder.runId, try body(recorder))
            }
        } catch let error as DatabaseError {
            throw JobError.io(IOError(path: path, reason: "offer ledger: \(error)"))
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
