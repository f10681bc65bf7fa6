import WinbackAnalytics

/// Who a campaign reaches (docs/campaigns.md).
public enum Audience: String, CaseIterable, Sendable {
    /// Expired subscribers with an allowed lapse reason, within a window of days since the lapse.
    case winBack = "win_back"
    /// Active paid subscribers who turned auto-renew off, close to expiry.
    case retention
    /// Active subscribers who have not answered a price increase, close to expiry.
    case priceIncrease = "price_increase"
    /// Subscribers in billing grace or retry: listed for payment-fix messaging, never signed.
    case billingIssue = "billing_issue"

    /// Whether a subscription with `status` can belong to the audience (the first rule of each).
    public func admits(_ status: SubscriptionStatus) -> Bool {
        switch self {
        case .winBack: status == .expired
        case .retention, .priceIncrease: status == .active
        case .billingIssue: status == .billingGracePeriod || status == .billingRetry
        }
    }

    /// Whether offers of this audience are signed.
    public var isSigned: Bool { self != .billingIssue }
}
