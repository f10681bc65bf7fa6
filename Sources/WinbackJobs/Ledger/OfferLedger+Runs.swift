import Foundation
import GRDB
import WinbackIO

/// Runs: when each began and ended, and the day's selections written in the run's own transaction.
extension OfferLedger {
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
}
