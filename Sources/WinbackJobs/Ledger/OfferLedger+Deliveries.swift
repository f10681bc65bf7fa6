import Foundation
import GRDB
import WinbackIO
import WinbackReportPage

/// Batches `winback deliver` had acknowledged, once each: the webhook's per campaign, Segment's and Braze's per
/// sink and day.
extension OfferLedger {
    /// The batches of day `asOf` a receiver has acknowledged, by campaign, with the batch size they were cut with.
    public func deliveredBatches(asOf: String) throws(JobError) -> [String: (batchSize: Int, batches: Set<Int>)] {
        try wrap {
            try queue.read { db in
                var delivered: [String: (batchSize: Int, batches: Set<Int>)] = [:]
                for row in try Row.fetchAll(
                    db, sql: "SELECT campaign_id, batch, batch_size FROM deliveries WHERE as_of = ?", arguments: [asOf])
                {
                    let campaign: String = row["campaign_id"]
                    delivered[campaign, default: (row["batch_size"], [])].batches.insert(row["batch"])
                }
                return delivered
            }
        }
    }

    /// Records that the receiver acknowledged a batch (its primary key refuses a second record of it).
    public func recordDelivery(
        asOf: String, campaign: String, batch: Int, offers: Int, batchSize: Int, status: Int, acknowledgedAt: String
    ) throws(JobError) {
        try wrap {
            try queue.write { db in
                try db.execute(
                    sql: "INSERT INTO deliveries (as_of, campaign_id, batch, offers, batch_size, status, acknowledged_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    arguments: [asOf, campaign, batch, offers, batchSize, status, acknowledgedAt])
            }
        }
    }

    /// The batches of day `asOf` that `sink` (`segment`, `braze`, `<sink>/<event type>`) has acknowledged: batch
    /// number → the messages it held.
    public func acknowledgedBatches(sink: String, asOf: String) throws(JobError) -> [Int: Int] {
        try wrap {
            try queue.read { db in
                var batches: [Int: Int] = [:]
                for row in try Row.fetchAll(
                    db, sql: "SELECT batch, messages FROM sink_batches WHERE sink = ? AND as_of = ?", arguments: [sink, asOf])
                {
                    batches[row["batch"]] = row["messages"]
                }
                return batches
            }
        }
    }

    /// Records that `sink` acknowledged batch `batch` of day `asOf` (its primary key refuses a second record of it).
    public func recordSinkBatch(
        sink: String, asOf: String, batch: Int, messages: Int, status: Int, acknowledgedAt: String
    ) throws(JobError) {
        try wrap {
            try queue.write { db in
                try db.execute(
                    sql: "INSERT INTO sink_batches (sink, as_of, batch, messages, status, acknowledged_at) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [sink, asOf, batch, messages, status, acknowledgedAt])
            }
        }
    }
}
