/// What the ledger holds of one refund request (docs/refunds.md): the decision recorded before sending and the
/// answer recorded after.
public struct RefundAnswer: Sendable, Equatable {
    /// How a request was answered (`answer_status`).
    public enum Status: String, Sendable, CaseIterable {
        /// Decided and about to be sent (a crash between sending and recording leaves this; the next run sends again).
        case sending
        /// Apple accepted the answer (HTTP 202).
        case sent
        /// Too late: more than 12 hours after the request; nothing sent.
        case late
        /// Apple refused the answer with a 4xx (its `errorCode` kept).
        case refused
        /// The decision was `NO_RESPONSE`: nothing sent.
        case noResponse = "no_response"

        /// Whether the request needs nothing more (every status but ``sending``).
        public var isFinal: Bool { self != .sending }
    }

    /// The decision (policy, preference, delivery status, sample content).
    public var decision: RefundDecision
    /// The answer's state.
    public var status: Status
    /// When it was recorded answered (sent, refused, late or no response), epoch ms; `nil` while sending.
    public var answeredAt: Int64?
    /// Apple's HTTP status for a refused answer, or `nil`.
    public var httpStatus: Int?
    /// Apple's `errorCode` for a refused answer, or `nil`.
    public var errorCode: Int64?

    /// An answer from its parts.
    public init(decision: RefundDecision, status: Status, answeredAt: Int64?, httpStatus: Int? = nil, errorCode: Int64? = nil) {
        self.decision = decision
        self.status = status
        self.answeredAt = answeredAt
        self.httpStatus = httpStatus
        self.errorCode = errorCode
    }

    /// The report's `answer_status`: this status, `unanswered` while sending.
    public var reportStatus: String { status == .sending ? RefundRequestsReport.unanswered : status.rawValue }
}
