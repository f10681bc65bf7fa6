import Foundation
import WinbackAnalytics
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

    /// The decisions of `day`, ranking campaigns by `campaignOrder`. A day whose `_manifest.json` does not list
    /// the file (published before Retention Messaging existed) has no decisions; a file the manifest lists but
    /// that is missing or unreadable, a day without a readable manifest, or a file that is not the table is an
    /// I/O error (the server keeps the day it serves: answering every account with the fallback would be wrong
    /// without a word).
    static func load(output: String, day: String, campaignOrder: [String]) throws -> RetentionDecisionTable {
        var table = RetentionDecisionTable(day: day, campaignOrder: campaignOrder)
        let name = ReportSchema.retentionDecisions.name
        let path = output + "/dt=" + day + "/" + name
        guard FileManager.default.fileExists(atPath: path) else {
            let manifestPath = output + "/dt=" + day + "/_manifest.json"
            guard let manifest = FileManager.default.contents(atPath: manifestPath) else {
                throw IOError(path: path, reason: "missing, and the day's _manifest.json cannot be read to tell whether it should be there")
            }
            guard String(decoding: manifest, as: UTF8.self).contains("\"\(name)\"") else { return table }
            throw IOError(path: path, reason: "missing, though the day's _manifest.json lists it")
        }
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
