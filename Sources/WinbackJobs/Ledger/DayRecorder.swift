import GRDB
import GRDBSQLite

/// Inserts a day's selections inside the write transaction opened by ``OfferLedger/recordDay(asOf:startedAt:_:)``.
///
/// Values are bound to the prepared insert with SQLite's own calls rather than through GRDB's
/// `StatementArguments`, which box each of the twelve values in an existential and copy each string into a
/// C string first.
struct DayRecorder {
    let runId: Int64
    fileprivate let insert: Statement
    private let shortfall: Statement
    private let database: Database

    init(runId: Int64, database: Database) throws {
        self.runId = runId
        self.database = database
        insert = try database.cachedStatement(
            sql: """
                INSERT INTO selections (campaign_id, account_key, as_of, original_transaction_id, variant, nonce, timestamp_ms, row, payload, run_id,
                                        audience, offer_identifier, offer_code, row_values)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        shortfall = try database.cachedStatement(
            sql: "INSERT OR REPLACE INTO code_shortfalls (campaign_id, as_of, codes_short) VALUES (?, ?, ?)")
    }

    /// Records how many treatment accounts an offer-code campaign's day left without a code.
    func recordShortfall(campaign: String, asOf: String, codesShort: Int) throws {
        try shortfall.execute(arguments: [campaign, asOf, codesShort])
    }

    /// Inserts `selections`; throws the `DatabaseError` of the first row SQLite refuses.
    func record(_ selections: [StoredSelection]) throws {
        let statement = insert.sqliteStatement
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        // By index: each selection's fields are bound where they are, without a copy of its nine strings.
        for index in selections.indices {
            sqlite3_reset(statement)
            var code = Self.bind(selections[index].campaignId, at: 1, to: statement)
            code |= Self.bind(selections[index].accountKey, at: 2, to: statement)
            code |= Self.bind(selections[index].asOf, at: 3, to: statement)
            code |= Self.bind(selections[index].originalTransactionId, at: 4, to: statement)
            code |= Self.bind(selections[index].variant, at: 5, to: statement)
            code |= Self.bind(selections[index].nonce, at: 6, to: statement)
            code |= selections[index].timestampMilliseconds.map { sqlite3_bind_int64(statement, 7, $0) } ?? sqlite3_bind_null(statement, 7)
            code |= Self.bind(selections[index].row, at: 8, to: statement)
            code |= Self.bind(selections[index].payload, at: 9, to: statement)
            code |= sqlite3_bind_int64(statement, 10, runId)
            code |= Self.bind(selections[index].audience, at: 11, to: statement)
            code |= Self.bind(selections[index].offerIdentifier, at: 12, to: statement)
            code |= Self.bind(selections[index].offerCode, at: 13, to: statement)
            code |=
                selections[index].rowValues.map { values in
                    values.bytes.withUnsafeBytes { sqlite3_bind_blob(statement, 14, $0.baseAddress, Int32($0.count), Self.transient) }
                } ?? sqlite3_bind_null(statement, 14)
            // SQLITE_OK is 0: any failed bind leaves a bit set.
            guard code == SQLITE_OK, sqlite3_step(statement) == SQLITE_DONE else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: sqlite3_extended_errcode(database.sqliteConnection)),
                    message: String(cString: sqlite3_errmsg(database.sqliteConnection)), sql: insert.sql)
            }
        }
    }

    /// Binds `text` (SQLite copies it) or NULL to parameter `index` (1-based); SQLite's result code.
    private static func bind(_ text: String?, at index: Int32, to statement: SQLiteStatement) -> Int32 {
        guard let text else { return sqlite3_bind_null(statement, index) }
        func bind(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
            // "" needs a non-nil pointer too: SQLite binds NULL for a nil one.
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_text(statement, index, "", 0, Self.transient) }
            return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
                sqlite3_bind_text(statement, index, text, Int32(bytes.count), Self.transient)
            }
        }
        // A native string's bytes are read where they are; `withUTF8` would need a mutable copy of it.
        if let code = text.utf8.withContiguousStorageIfAvailable(bind) { return code }
        var copy = text
        return copy.withUTF8(bind)
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the call returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}
