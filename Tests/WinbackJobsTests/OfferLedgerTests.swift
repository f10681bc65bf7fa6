import Foundation
import GRDB
import Testing
import WinbackTestSupport

@testable import WinbackJobs

/// The ledger's own insert (values bound straight to SQLite): what goes in comes back, NULLs and empty
/// strings kept apart, and a refused row is an error that names the ledger.
@Suite struct OfferLedgerTests {
    static func ledger() throws -> OfferLedger {
        let directory = try CommandRunner.temporaryDirectory("ledger")
        return try OfferLedger(path: directory.appendingPathComponent("ledger.sqlite").path)
    }

    static let selections = [
        StoredSelection(
            campaignId: "winback", accountKey: "0f3c…é", asOf: "2026-11-19", originalTransactionId: "2000000000000001",
            variant: "treatment", nonce: "5b6c1a2e-0000-4000-8000-000000000001", timestampMilliseconds: 1_763_510_400_123,
            row: "winback,0f3c…é,2000000000000001,treatment\n", payload: #"{"campaignId":"winback","note":"quote \" and \\ kept"}"#),
        StoredSelection(
            campaignId: "winback", accountKey: "2000000000000002", asOf: "2026-11-19", originalTransactionId: "2000000000000002",
            variant: "holdout", nonce: nil, timestampMilliseconds: nil, row: "", payload: nil),
    ]

    @Test func recordedSelectionsReadBackUnchanged() throws {
        let ledger = try Self.ledger()
        let runId = try ledger.beginRun(asOf: "2026-11-19", startedAt: "2026-11-20T02:00:00.000Z")
        try ledger.record(Self.selections, runId: runId)
        let stored = try ledger.selections(campaign: "winback", asOf: "2026-11-19")
        #expect(stored == Self.selections.sorted { $0.accountKey.utf8.lexicographicallyPrecedes($1.accountKey.utf8) })
        #expect(stored.first { $0.variant == "holdout" }?.row == "", "an empty row is stored as '', not NULL")
    }

    @Test func aSecondSelectionOfTheSameAccountAndDayIsRefused() throws {
        let ledger = try Self.ledger()
        let runId = try ledger.beginRun(asOf: "2026-11-19", startedAt: "2026-11-20T02:00:00.000Z")
        do {
            try ledger.record([Self.selections[0], Self.selections[0]], runId: runId)
            Issue.record("a duplicate (campaign, account, day) was stored")
        } catch {
            #expect("\(error)".contains(ledger.path))
            #expect("\(error)".contains("UNIQUE constraint failed"))
        }
        #expect(try ledger.selections(campaign: "winback", asOf: "2026-11-19").isEmpty, "the day's transaction stored nothing")
    }

    /// The page size in an SQLite file's header (bytes 16–17, big-endian).
    static func pageSize(of path: String) throws -> Int {
        let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(18))
        return Int(header[16]) << 8 | Int(header[17])
    }

    @Test func aNewLedgerHas16KiBPagesAndAnExistingOneKeepsItsOwn() throws {
        let created = try Self.ledger()
        _ = try created.beginRun(asOf: "2026-11-19", startedAt: "2026-11-20T02:00:00.000Z")
        #expect(try Self.pageSize(of: created.path) == 16384)

        // A ledger written before (SQLite's default 4 KiB pages) opens, migrates and records as before.
        let path = try CommandRunner.temporaryDirectory("old-ledger").appendingPathComponent("ledger.sqlite").path
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE unrelated (value TEXT)") }
        #expect(try Self.pageSize(of: path) == 4096)
        let existing = try OfferLedger(path: path)
        try existing.record(Self.selections, runId: try existing.beginRun(asOf: "2026-11-19", startedAt: "2026-11-20T02:00:00.000Z"))
        #expect(try existing.selections(campaign: "winback", asOf: "2026-11-19").count == 2)
        #expect(try Self.pageSize(of: path) == 4096)
    }
}
