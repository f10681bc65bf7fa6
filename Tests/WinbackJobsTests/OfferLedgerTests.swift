import Foundation
import GRDB
import Testing
import WinbackAnalytics
import WinbackCore
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
            row: "winback,0f3c…é,2000000000000001,treatment\n",
            rowValues: EncodedRow(
                EligibleAccountRow(
                    campaignId: "winback", accountKey: "0f3c…é", originalTransactionId: "2000000000000001", variant: "treatment",
                    audience: "win_back", productId: "p", offerIdentifier: "a,\"b\"", paidDays: 40, daysSinceLapse: nil, daysToExpiry: 3,
                    lapseReason: nil)),
            payload: #"{"campaignId":"winback","note":"quote \" and \\ kept"}"#,
            audience: "win_back", offerIdentifier: "winback.monthly.50off"),
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

    /// A ledger written by the previous version (schema v1: no audience or offer columns) is migrated when
    /// opened: both are read back from the eligible_accounts row each selection kept, so the outcomes of
    /// its campaigns can still be measured.
    @Test func aVersionOneLedgerGainsAudienceAndOfferFromItsRows() throws {
        let directory = try CommandRunner.temporaryDirectory("ledger-v1")
        let path = directory.appendingPathComponent("ledger.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try OfferLedger.migrator.migrate(queue, upTo: "v1")
            try queue.write { db in
                try db.execute(sql: "INSERT INTO runs (as_of, started_at) VALUES ('2026-11-01', 'x')")
                for (account, variant, offer) in [("a", "treatment", "\"wb,1\""), ("b", "holdout", ""), ("c", "treatment", "wb2")] {
                    try db.execute(
                        sql: """
                            INSERT INTO selections (campaign_id, account_key, as_of, original_transaction_id, variant, row, run_id)
                            VALUES ('winback', ?, '2026-11-01', ?, ?, ?, 1)
                            """,
                        arguments: [
                            account, "o-" + account, variant,
                            "winback,\(account),o-\(account),\(variant),win_back,p,\(offer),40,10,,voluntary\n",
                        ])
                }
            }
        }
        let ledger = try OfferLedger(path: path)
        let cohorts = try ledger.cohorts(from: "2026-10-01", until: "2026-11-02") { _ in 7 }
        #expect(cohorts.count == 1)
        #expect(cohorts.first?.audience == "win_back" && cohorts.first?.selectedOn == "2026-11-01" && cohorts.first?.windowStart == 7)
        #expect(cohorts.first?.members.map(\.offerIdentifier) == ["wb,1", nil, "wb2"])
        #expect(cohorts.first?.members.map(\.variant) == [.treatment, .holdout, .treatment])
        #expect(try ledger.cohorts(from: "2026-11-02", until: "2026-12-01") { _ in 7 }.isEmpty)
        // v6: each kept row's typed values, read from its line once, so a re-run publishes the day without parsing it.
        let stored = try ledger.selections(campaign: "winback", asOf: "2026-11-01")
        #expect(stored.count == 3)
        for selection in stored {
            #expect(selection.rowValues?.cells == CSVFormat.fields(of: selection.row), "\(selection.accountKey)")
        }
        #expect(stored.first?.rowValues?.cells[6] == "wb,1")
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

/// docs/campaigns.md: an account counts once per campaign, in the cohort of its first selection.
@Suite struct OutcomeCohortTests {
    static func selection(_ account: String, on day: String, variant: String, campaign: String = "winback") -> StoredSelection {
        StoredSelection(
            campaignId: campaign, accountKey: account, asOf: day, originalTransactionId: "ot-" + account, variant: variant, nonce: nil,
            timestampMilliseconds: nil, row: "", payload: nil, audience: "win_back", offerIdentifier: nil)
    }

    @Test func aReSelectedAccountCountsOnlyInItsFirstCohort() throws {
        let ledger = try OfferLedgerTests.ledger()
        let runId = try ledger.beginRun(asOf: "2026-11-19", startedAt: "2026-11-20T02:00:00.000Z")
        try ledger.record(
            [
                Self.selection("a", on: "2026-06-01", variant: "holdout"), Self.selection("b", on: "2026-06-01", variant: "treatment"),
                // a and b come back after their cooldown: re-offers, not new cohort members.
                Self.selection("a", on: "2026-09-01", variant: "holdout"), Self.selection("c", on: "2026-09-01", variant: "treatment"),
                Self.selection("b", on: "2026-09-01", variant: "treatment"),
                // Another campaign's first selection of a is its own.
                Self.selection("a", on: "2026-09-01", variant: "treatment", campaign: "other"),
            ], runId: runId)
        let cohorts = try ledger.cohorts(from: "2025-11-19", until: "2026-11-19") { _ in 0 }
        let summary = cohorts.map { cohort in
            "\(cohort.campaignId) \(cohort.selectedOn): " + cohort.members.map(\.originalTransactionId).joined(separator: " ")
        }
        #expect(summary == ["other 2026-09-01: ot-a", "winback 2026-06-01: ot-a ot-b", "winback 2026-09-01: ot-c"])
    }
}
