import Foundation
import WinbackAnalytics
import WinbackAppStore

/// The request log `winback serve` keeps (docs/retention-messaging.md): `<ledger's directory>/retention-requests/<UTC date>.ndjson`
/// (`<UTC date>.<instance>.ndjson` for a server started with `--instance`), one JSON line per response. The run
/// reads a day's logs for `summary.json.gz`'s `retentionRequests`.
package enum RetentionRequestLog {
    /// The directory of the day logs: `retention-requests/` beside the ledger at `ledgerPath`.
    package static func directory(ledgerPath: String) -> String {
        (ledgerPath as NSString).deletingLastPathComponent + "/retention-requests"
    }

    /// The day's log files: `<day>.ndjson` and every instance's `<day>.<instance>.ndjson`, in name order.
    package static func paths(ledgerPath: String, day: String) -> [String] {
        let directory = directory(ledgerPath: ledgerPath)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0 == day + ".ndjson" || ($0.hasPrefix(day + ".") && $0.hasSuffix(".ndjson")) }.sorted()
            .map { directory + "/" + $0 }
    }

    /// `retentionRequests`: the day's responses to `POST /retention` counted by `campaignId`, `variant` and `kind`
    /// (each possibly null), sorted by those keys (null first); an empty list without a log. Unreadable lines,
    /// and the lines of other routes (`route: "notifications"`), are skipped.
    package static func summary(ledgerPath: String, day: String) -> JSONValue {
        var counts: [[String?]: Int] = [:]
        for path in paths(ledgerPath: ledgerPath, day: day) {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            count(data, into: &counts)
        }
        guard !counts.isEmpty else { return .array([]) }
        return render(counts)
    }

    /// Adds the `/retention` lines of `data` to `counts`.
    private static func count(_ data: Data, into counts: inout [[String?]: Int]) {
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            guard let value = try? JSONParser.parse(Array(line)), value.objectMembers != nil, value["route"] == nil else { continue }
            let key = ["campaignId", "variant", "kind"].map { value[$0]?.stringValue }
            counts[key, default: 0] += 1
        }
    }

    /// The counts as `retentionRequests`' list.
    private static func render(_ counts: [[String?]: Int]) -> JSONValue {
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
