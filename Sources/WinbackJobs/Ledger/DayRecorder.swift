import GRDB

/// Inserts a day's selections inside the write transaction opened by ``OfferLedger/recordDay(asOf:startedAt:_:)``.
struct DayRecorder {
    let runId: Int64
    fileprivate let insert: Statement

    init(runId: Int64, database: Database) throws {
        self.runId = runId
        insert = try database.cachedStatement(
            sql: """
                INSERT INTO selections (campaign_id, account_key, as_of, original_transaction_id, variant, nonce, timestamp_ms, row, payload, run_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
    }

    func record(_ selections: [StoredSelection]) throws {
        for selection in selections {
            try insert.execute(
                arguments: [
                    selection.campaignId, selection.accountKey, selection.asOf, selection.originalTransactionId, selection.variant,
                    selection.nonce, selection.timestampMilliseconds, selection.row, selection.payload, runId,
                ])
        }
    }
}
