import GRDB
import WinbackAnalytics
import WinbackAppStore
import WinbackReportPage

/// One ledger row read column by column with checked types: GRDB's subscripts trap on a value of the
/// wrong SQLite type, and a damaged ledger must end the run with 74 naming it, never a crash (issue 44).
struct LedgerRow {
    /// Why a stored value cannot be used.
    struct Damage: Error, CustomStringConvertible {
        var description: String
    }

    let row: Row
    /// The table, for messages.
    let table: String

    /// The text in `column`; throws when it is NULL or not text.
    func text(_ column: String) throws(Damage) -> String {
        guard let value = try optionalText(column) else { throw Damage(description: "\(table).\(column) is NULL") }
        return value
    }

    /// The text in `column`, `nil` when NULL; throws when it is another type.
    func optionalText(_ column: String) throws(Damage) -> String? {
        let value: DatabaseValue = row[column]
        switch value.storage {
        case .null: return nil
        case .string(let text): return text
        default: throw Damage(description: "\(table).\(column) holds \(value), expected text")
        }
    }

    /// The bytes in `column`, `nil` when NULL; throws when it is another type.
    func optionalBlob(_ column: String) throws(Damage) -> [UInt8]? {
        let value: DatabaseValue = row[column]
        switch value.storage {
        case .null: return nil
        case .blob(let data): return [UInt8](data)
        default: throw Damage(description: "\(table).\(column) holds \(value), expected bytes")
        }
    }

    /// The integer in `column`, `nil` when NULL; throws when it is another type.
    func optionalInteger(_ column: String) throws(Damage) -> Int64? {
        let value: DatabaseValue = row[column]
        switch value.storage {
        case .null: return nil
        case .int64(let integer): return integer
        default: throw Damage(description: "\(table).\(column) holds \(value), expected an integer")
        }
    }

    /// A stored selection, checked so it is re-emitted only as it was written: its CSV row one line ending
    /// in a newline (or empty), its offer payload a JSON object on one line.
    func selection() throws(Damage) -> StoredSelection {
        let selection = StoredSelection(
            campaignId: try text("campaign_id"), accountKey: try text("account_key"), asOf: try text("as_of"),
            originalTransactionId: try text("original_transaction_id"), variant: try text("variant"), nonce: try optionalText("nonce"),
            timestampMilliseconds: try optionalInteger("timestamp_ms"), row: try text("row"), payload: try optionalText("payload"),
            audience: try optionalText("audience"), offerIdentifier: try optionalText("offer_identifier"),
            offerCode: try optionalText("offer_code"))
        let key = "\(selection.campaignId)/\(selection.accountKey)/\(selection.asOf)"
        let isOneLine = selection.row.hasSuffix("\n") && selection.row.dropLast().firstIndex { $0 == "\n" || $0 == "\r" } == nil
        guard selection.row.isEmpty || isOneLine else {
            throw Damage(description: "selection \(key): its eligible_accounts row is not one line ending in a newline")
        }
        var checked = selection
        if let bytes = try optionalBlob("row_values") {
            guard let values = EncodedRow(validating: bytes, columns: ReportSchema.eligibleAccounts.columns.count) else {
                throw Damage(description: "selection \(key): its eligible_accounts values are not the table's columns")
            }
            checked.rowValues = values
        }
        if let payload = selection.payload {
            guard !payload.contains("\n"), case .object? = try? JSONParser.parse(payload) else {
                throw Damage(description: "selection \(key): its offer payload is not a JSON object on one line")
            }
        }
        return checked
    }
}
