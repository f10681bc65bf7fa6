import Foundation
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
}
