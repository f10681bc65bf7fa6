import Foundation
import GRDB
import WinbackIO
import WinbackJobs

/// `<api.directory>/history/cursors.sqlite` (docs/sync.md): each original transaction id's last transaction
/// history `revision`, and which ids the current pass of `--history` or `--statuses` has finished.
///
/// A pass is one sweep over a set of ids. It ends when every id of an invocation is done; a sync killed or
/// failed part-way leaves its pass open, and the next invocation resumes it, skipping the ids it already
/// finished. An id's row is committed only after its file is durable (the caller writes first).
final class HistoryCursorStore: Sendable {
    /// What a pass is of.
    enum Kind: String, Sendable {
        case history
        case statuses
    }

    private let queue: DatabaseQueue
    let path: String

    /// Opens (or creates) the store at `path`.
    init(path: String) throws(JobError) {
        self.path = path
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try Self.migrator.migrate(queue)
        } catch {
            throw .io(IOError(path: path, reason: "cannot open the history cursors (\(error))"))
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE cursors (
                        original_transaction_id TEXT PRIMARY KEY NOT NULL,
                        revision TEXT NOT NULL
                    );
                    CREATE TABLE passes (
                        kind TEXT PRIMARY KEY NOT NULL,
                        number INTEGER NOT NULL,
                        finished INTEGER NOT NULL
                    );
                    CREATE TABLE done (
                        kind TEXT NOT NULL,
                        original_transaction_id TEXT NOT NULL,
                        pass INTEGER NOT NULL,
                        PRIMARY KEY (kind, original_transaction_id)
                    );
                    """)
        }
        return migrator
    }

    /// The pass of `kind` to work in: the open one (a resumed sync) or a new one; with the ids it has
    /// already finished.
    func beginPass(_ kind: Kind) throws(JobError) -> (number: Int64, finished: Set<String>, isResumed: Bool) {
        do {
            return try queue.write { db in
                let row = try Row.fetchOne(db, sql: "SELECT number, finished FROM passes WHERE kind = ?", arguments: [kind.rawValue])
                let previous: Int64 = row?["number"] ?? 0
                if let row, (row["finished"] as Int64) == 0 {
                    let ids = try String.fetchAll(
                        db, sql: "SELECT original_transaction_id FROM done WHERE kind = ? AND pass = ?",
                        arguments: [kind.rawValue, previous])
                    return (previous, Set(ids), true)
                }
                try db.execute(
                    sql: "INSERT INTO passes (kind, number, finished) VALUES (?, ?, 0) "
                        + "ON CONFLICT(kind) DO UPDATE SET number = excluded.number, finished = 0",
                    arguments: [kind.rawValue, previous + 1])
                return (previous + 1, [], false)
            }
        } catch {
            throw .io(IOError(path: path, reason: "cannot start a pass (\(error))"))
        }
    }

    /// Marks the open pass of `kind` finished: the next sync starts a new one.
    func finishPass(_ kind: Kind) throws(JobError) {
        do {
            try queue.write { db in try db.execute(sql: "UPDATE passes SET finished = 1 WHERE kind = ?", arguments: [kind.rawValue]) }
        } catch {
            throw .io(IOError(path: path, reason: "cannot finish the pass (\(error))"))
        }
    }

    /// The last revision kept for `id`, or `nil` before its first history.
    func revision(of id: String) throws(JobError) -> String? {
        do {
            return try queue.read { db in
                try String.fetchOne(db, sql: "SELECT revision FROM cursors WHERE original_transaction_id = ?", arguments: [id])
            }
        } catch {
            throw .io(IOError(path: path, reason: "cannot read the cursor of \(id) (\(error))"))
        }
    }

    /// Records `id` done in `pass` of `kind`, with its new `revision` (history) in the same transaction.
    func commit(_ id: String, kind: Kind, pass: Int64, revision: String?) throws(JobError) {
        do {
            try queue.write { db in
                if let revision {
                    try db.execute(
                        sql: "INSERT INTO cursors (original_transaction_id, revision) VALUES (?, ?) "
                            + "ON CONFLICT(original_transaction_id) DO UPDATE SET revision = excluded.revision",
                        arguments: [id, revision])
                }
                try db.execute(
                    sql: "INSERT INTO done (kind, original_transaction_id, pass) VALUES (?, ?, ?) "
                        + "ON CONFLICT(kind, original_transaction_id) DO UPDATE SET pass = excluded.pass",
                    arguments: [kind.rawValue, id, pass])
            }
        } catch {
            throw .io(IOError(path: path, reason: "cannot commit the cursor of \(id) (\(error))"))
        }
    }
}
