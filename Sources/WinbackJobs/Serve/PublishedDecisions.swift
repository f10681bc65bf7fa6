import Foundation
import WinbackCore
import WinbackIO

/// Finds and reads the newest published day's `retention_decisions.csv.gz` (docs/retention-messaging.md) for `winback serve`.
enum PublishedDecisions {
    /// A published day: its label and when its `_SUCCESS` was written (a re-run of the day writes it again).
    struct Day: Equatable {
        /// `YYYY-MM-DD`.
        var label: String
        /// `_SUCCESS`'s modification time, seconds since 1970.
        var publishedAt: Double
    }

    /// The greatest day under `output` whose `dt=<D>/_SUCCESS` exists, or `nil` when none does.
    static func latest(output: String) -> Day? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: output) else { return nil }
        let days = names.filter { $0.hasPrefix("dt=") && $0.count == 13 }.sorted(by: >)
        for name in days {
            let marker = output + "/" + name + "/_SUCCESS"
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: marker) else { continue }
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return Day(label: String(name.dropFirst(3)), publishedAt: modified)
        }
        return nil
    }

    /// The decisions of `day`, ranking campaigns by `campaignOrder`. A day without the file (published before
    /// Retention Messaging existed) has no decisions; a file that is not the table is an I/O error.
    static func load(output: String, day: String, campaignOrder: [String]) throws -> RetentionDecisionTable {
        var table = RetentionDecisionTable(day: day, campaignOrder: campaignOrder)
        let path = output + "/dt=" + day + "/" + ReportSchema.retentionDecisions.name
        guard FileManager.default.fileExists(atPath: path) else { return table }
        var reader = CSVRowReader(source: try GzipReader(source: try FileByteSource(path: path)))
        let header = try reader.next()?.map { $0.map { String(decoding: $0, as: UTF8.self) } ?? "" }
        let expected = ReportSchema.retentionDecisions.columns.map(\.name)
        guard header == expected else {
            throw IOError(
                path: path,
                reason: "expected the columns \(expected.joined(separator: ",")), found \(header?.joined(separator: ",") ?? "no header")")
        }
        while let fields = try reader.next() {
            let row = fields.map { $0.map { String(decoding: $0, as: UTF8.self) } }
            guard row.count == expected.count, let originalTransactionId = row[0], let campaignId = row[1], let variant = row[3] else {
                throw IOError(path: path, reason: "a row without original_transaction_id, campaign_id or variant")
            }
            table.add(
                originalTransactionId: originalTransactionId,
                RetentionDecision(
                    campaignId: campaignId, variant: variant, kind: row[4], messageIdentifier: row[5], productId: row[6],
                    offerIdentifier: row[7],
                    billingPlanType: row[8]))
        }
        return table
    }
}
