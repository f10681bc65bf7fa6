/// What a refund policy answers a `CONSUMPTION_REQUEST` with (docs/refunds.md).
public enum RefundPreference: String, Sendable, CaseIterable {
    /// Send `refundPreference: GRANT_FULL`.
    case grantFull = "GRANT_FULL"
    /// Send `refundPreference: GRANT_PRORATED`.
    case grantProrated = "GRANT_PRORATED"
    /// Send `refundPreference: DECLINE`.
    case decline = "DECLINE"
    /// Send the consumption data without a preference.
    case none = "NONE"
    /// Send nothing.
    case noResponse = "NO_RESPONSE"

    /// The body's `refundPreference`, or `nil` when none is sent.
    public var refundPreference: String? {
        switch self {
        case .grantFull, .grantProrated, .decline: rawValue
        case .none, .noResponse: nil
        }
    }

    /// Whether an answer is sent at all.
    public var isSent: Bool { self != .noResponse }
}
