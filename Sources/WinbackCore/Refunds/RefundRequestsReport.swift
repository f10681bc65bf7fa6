import WinbackAnalytics
import WinbackAppStore

extension ReportSchema {
    /// `refund_requests.csv.gz`: one row per `CONSUMPTION_REQUEST` (docs/refunds.md), key `notification_uuid`.
    public static let refundRequests = ReportSchema(
        name: "refund_requests.csv.gz",
        columns: [
            ("notification_uuid", .string), ("transaction_id", .string), ("original_transaction_id", .string), ("account_key", .string),
            ("product_id", .string), ("storefront", .string), ("reason", .string), ("requested_at", .instant), ("deadline_at", .instant),
            ("policy_id", .string), ("preference", .string), ("delivery_status", .string), ("sample_content_provided", .boolean),
            ("answered_at", .instant), ("answer_status", .string), ("outcome", .string), ("outcome_at", .instant),
            ("refund_amount", .money), ("currency", .currency),
        ])
}

/// `refund_requests.csv.gz` and the summary's `refundRequests` (docs/refunds.md): every request with the
/// ledger's answer and Apple's outcome.
public enum RefundRequestsReport {
    /// `answer_status` of a request the ledger holds no answer for.
    public static let unanswered = "unanswered"

    /// One request's row.
    public struct Row: TableRow, Equatable {
        /// The request's facts and outcome.
        public var request: RefundRequest
        /// The ledger's decision and answer, or `nil` when it was never decided.
        public var answer: RefundAnswer?

        /// A row from its parts.
        public init(request: RefundRequest, answer: RefundAnswer?) {
            self.request = request
            self.answer = answer
        }

        /// `answer_status`: the answer's, or `unanswered`.
        public var answerStatus: String { answer?.reportStatus ?? RefundRequestsReport.unanswered }

        /// Hands the values to `fields` in ``ReportSchema/refundRequests``' column order.
        public func write(to fields: inout some RowFields) {
            fields.text(request.notificationUUID)
            fields.text(request.transactionId)
            fields.text(request.originalTransactionId)
            fields.text(request.accountKey)
            fields.text(request.productId)
            fields.text(request.storefront)
            fields.text(request.reason)
            fields.instant(request.requestedAt)
            fields.instant(request.deadline)
            fields.text(answer?.decision.policyId)
            fields.text(answer?.decision.preference.rawValue)
            fields.text(answer?.decision.deliveryStatus)
            fields.boolean(answer?.decision.sampleContentProvided)
            fields.instant(answer?.answeredAt)
            fields.text(answerStatus)
            fields.text(request.outcome.rawValue)
            fields.instant(request.outcomeAt)
            fields.money(request.refundAmount)
            fields.text(request.currency)
        }
    }

    /// The rows of `requests` (in their order), each with its answer in `answers` (by `notificationUUID`).
    public static func rows(_ requests: [RefundRequest], answers: [String: RefundAnswer]) -> [Row] {
        requests.map { Row(request: $0, answer: answers[$0.notificationUUID]) }
    }

    /// One policy's line of the summary and the page: its requests and what Apple decided.
    public struct PolicyCounts: Sendable, Equatable {
        /// The policy id (``RefundDecision/overridePolicyId`` for overrides; empty for requests no policy decided).
        public var policyId: String
        /// Its requests.
        public var requests = 0
        /// … refunded by Apple.
        public var refunded = 0
        /// … declined by Apple.
        public var declined = 0
        /// … not decided yet.
        public var pending = 0
        /// The refunded amount in the reporting currency, milliunits (refunds without a converted amount add nothing;
        /// 0 without a reporting currency).
        public var refundedAmount: Int64 = 0

        /// Refunded among those Apple decided, in millionths; `nil` before any decision.
        public var refundRateMillionths: Int64? {
            let decided = refunded + declined
            guard decided > 0 else { return nil }
            return MoneyMath.proportion(Int64(refunded), 1_000_000, of: Int64(decided))
        }
    }

    /// The summary's counts: requests `received`, `answered` (sent in time), `late`, and per policy.
    public struct Summary: Sendable, Equatable {
        /// Requests listed.
        public var received = 0
        /// Requests whose answer Apple accepted.
        public var answered = 0
        /// Requests recorded too late to answer.
        public var late = 0
        /// Per policy, ordered by policy id (code points; requests no policy decided under "").
        public var policies: [PolicyCounts] = []
        /// The reporting currency (`refundedAmount`'s), or `nil`: then `refundedAmount` is null.
        public var currency: String?

        /// The counts of `rows`; amounts summed when in `currency`, the reporting currency.
        public init(_ rows: [Row], currency: String?) {
            self.currency = currency
            var byPolicy: [String: PolicyCounts] = [:]
            for row in rows {
                received += 1
                if row.answer?.status == .sent { answered += 1 }
                if row.answer?.status == .late { late += 1 }
                let id = row.answer?.decision.policyId ?? ""
                var counts = byPolicy[id] ?? PolicyCounts(policyId: id)
                counts.requests += 1
                switch row.request.outcome {
                case .refunded:
                    counts.refunded += 1
                    if let currency, row.request.currency == currency { counts.refundedAmount += row.request.refundAmount ?? 0 }
                case .declined: counts.declined += 1
                case .pending: counts.pending += 1
                }
                byPolicy[id] = counts
            }
            policies = byPolicy.values.sorted { CodePointOrder.less($0.policyId, $1.policyId) }
        }

        /// `refundRequests` of `summary.json.gz`.
        public var json: JSONValue {
            JSONText.object([
                ("received", .integer(Int64(received))), ("answered", .integer(Int64(answered))), ("late", .integer(Int64(late))),
                (
                    "policies",
                    .array(
                        policies.map { counts in
                            JSONElement(
                                value: JSONText.object([
                                    ("policyId", counts.policyId.isEmpty ? .null : .string(counts.policyId)),
                                    ("requests", .integer(Int64(counts.requests))), ("refunded", .integer(Int64(counts.refunded))),
                                    ("declined", .integer(Int64(counts.declined))), ("pending", .integer(Int64(counts.pending))),
                                    ("refundedAmount", currency == nil ? .null : .integer(counts.refundedAmount)),
                                ]), range: 0..<0)
                        })
                ),
            ])
        }
    }
}
