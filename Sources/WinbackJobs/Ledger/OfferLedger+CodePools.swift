import Foundation
import GRDB
import WinbackIO

/// One-time offer codes: which the ledger has given, and the accounts a day left without one.
extension OfferLedger {
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
}
