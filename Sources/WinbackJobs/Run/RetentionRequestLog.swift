import Foundation
import WinbackCore

/// The request log `winback serve` keeps (docs/retention-messaging.md): `<ledger's directory>/retention-requests/<UTC date>.ndjson`,
/// one JSON line per response. The run reads a day's log for `summary.json.gz`'s `retentionRequests`.
enum RetentionRequestLog {
    /// The directory of the day logs: `retention-requests/` beside the ledger at `ledgerPath`.
    static func directory(ledgerPath: String) -> String {
        (ledgerPath as NSString).deletingLastPathComponent + "/retention-requests"
    }

    /// The log of UTC day `day` (`YYYY-MM-DD`) beside the ledger at `ledgerPath`.
    static func path(ledgerPath: String, day: String) -> String {
        directory(ledgerPath: ledgerPath) + "/" + day + ".ndjson"
    }

    /// `retentionRequests`: the day's responses counted by `campaignId`, `variant` and `kind` (each possibly
    /// null), sorted by those keys (null first); an empty list without a log. Unreadable lines are skipped.
    static func summary(ledgerPath: String, day: String) -> JSONValue {
        guard let data = FileManager.default.contents(atPath: path(ledgerPath: ledgerPath, day: day)) else { return .array([]) }
        var counts: [[String?]: Int] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            guard let value = try? JSONParser.parse(Array(line)), value.objectMembers != nil else { continue }
            let key = ["campaignId", "variant", "kind"].map { value[$0]?.stringValue }
            counts[key, default: 0] += 1
        }
        let order = counts.keys.sorted { lhs, rhs in
            for (left, right) in zip(lhs, rhs) where left != right {
                guard let left else { return true }
                guard let right else { return false }
                return CodePointOrder.less(left, right)
            }
            return false
        }
        return .array(
            order.map { key in
                JSONElement(
                    value: JSONText.object([
                        ("campaignId", key[0].map(JSONValue.string) ?? .null), ("variant", key[1].map(JSONValue.string) ?? .null),
                        ("kind", key[2].map(JSONValue.string) ?? .null), ("requests", .integer(Int64(counts[key] ?? 0))),
                    ]), range: 0..<0)
            })
    }
}
