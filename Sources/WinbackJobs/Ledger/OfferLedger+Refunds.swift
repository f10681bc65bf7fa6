import Foundation
import GRDB
import WinbackCore
import WinbackIO

/// Refund requests `winback refunds` decided and answered (docs/refunds.md): one row per `notificationUUID`,
/// written `sending` before the answer goes out and with its answer after, so a re-run never sends an
/// answered request again and no request is ever recorded twice.
extension OfferLedger {
    /// Every recorded request's decision and answer, by `notificationUUID`.
    public func refundAnswers() throws(JobError) -> [String: RefundAnswer] {
        try wrap { try queue.read { db in try Self.refundAnswers(db) } }
    }

    /// The answers of the ledger at `path` read without taking its lock or changing it (a run reading while
    /// `winback refunds` answers, a dry run): empty when there is no ledger or it predates refunds.
    public static func refundAnswers(path: String) throws(JobError) -> [String: RefundAnswer] {
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(10)
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            return try queue.read { db in
                guard try db.tableExists("refund_answers") else { return [:] }
                return try refundAnswers(db)
            }
        } catch let damage as LedgerRow.Damage {
            throw .io(IOError(path: path, reason: "the offer ledger is damaged: \(damage); restore it from a backup"))
        } catch {
            throw .io(IOError(path: path, reason: "offer ledger: \(error)"))
        }
    }

    private static func refundAnswers(_ db: Database) throws -> [String: RefundAnswer] {
        var answers: [String: RefundAnswer] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT * FROM refund_answers") {
            let uuid: String = row["notification_uuid"]
            guard let preference = RefundPreference(rawValue: row["preference"]),
                let status = RefundAnswer.Status(rawValue: row["status"])
            else { throw LedgerRow.Damage(description: "refund_answers row \(uuid): unknown preference or status") }
            let decision = RefundDecision(
                policyId: row["policy_id"], preference: preference, deliveryStatus: row["delivery_status"],
                sampleContentProvided: (row["sample_content_provided"] as Int64) != 0)
            answers[uuid] = RefundAnswer(
                decision: decision, status: status, answeredAt: row["answered_at"], httpStatus: row["http_status"],
                errorCode: row["error_code"])
        }
        return answers
    }

    /// Records `decision` for request `notificationUUID` with `status` (``RefundAnswer/Status/sending`` before an
    /// answer goes out; `late` or `no_response` when none will). A request already recorded keeps its row and
    /// decision: only a `sending` row changes, to the final `status`.
    public func recordRefundDecision(
        notificationUUID: String, transactionId: String?, decision: RefundDecision, status: RefundAnswer.Status, at instant: Int64
    ) throws(JobError) {
        try wrap {
            try queue.write { db in
                try db.execute(
                    sql: "INSERT INTO refund_answers (notification_uuid, transaction_id, policy_id, preference, delivery_status, "
                        + "sample_content_provided, status, decided_at, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                        + "ON CONFLICT (notification_uuid) DO UPDATE SET status = excluded.status, answered_at = excluded.answered_at "
                        + "WHERE refund_answers.status = 'sending'",
                    arguments: [
                        notificationUUID, transactionId, decision.policyId, decision.preference.rawValue, decision.deliveryStatus,
                        decision.sampleContentProvided ? 1 : 0, status.rawValue, instant, status.isFinal ? instant : nil,
                    ])
            }
        }
    }

    /// Records the answer to a request recorded `sending`: `sent` (Apple's 202) or `refused` with Apple's HTTP
    /// status and `errorCode`.
    public func recordRefundAnswer(
        notificationUUID: String, status: RefundAnswer.Status, at instant: Int64, httpStatus: Int, errorCode: Int64? = nil
    ) throws(JobError) {
        try wrap {
            try queue.write { db in
                try db.execute(
                    sql: "UPDATE refund_answers SET status = ?, answered_at = ?, http_status = ?, error_code = ? "
                        + "WHERE notification_uuid = ? AND status = 'sending'",
                    arguments: [status.rawValue, instant, httpStatus, errorCode, notificationUUID])
            }
        }
    }
}
