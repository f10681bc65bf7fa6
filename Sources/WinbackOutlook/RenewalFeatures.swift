/// What the renewal outlook knows of one subscription at one instant (docs/renewal-outlook.md): the inputs its
/// estimate of the next renewal depends on. The same features describe a past renewal (when it fell due) and a
/// coming one, so the rates learned from the past apply to the rows.
public struct RenewalFeatures: Sendable, Hashable {
    /// The payment state: `none`, or the billing retry or grace period the renewal recovers from.
    public enum BillingState: String, Sendable, CaseIterable {
        case none, retry, grace
    }

    /// The offer of the period now running (`period_kind`).
    public enum PeriodKind: String, Sendable, CaseIterable {
        case freeTrial = "free_trial"
        case intro
        case promotional
        case winBack = "win_back"
        case offerCode = "offer_code"
        case plan
        case standard

        /// The kind's place in ``allCases`` (a segment's key).
        var index: UInt8 {
            switch self {
            case .freeTrial: 0
            case .intro: 1
            case .promotional: 2
            case .winBack: 3
            case .offerCode: 4
            case .plan: 5
            case .standard: 6
            }
        }
    }

    /// Auto-renewal is on (the customer has not turned it off).
    public var autoRenew: Bool
    /// The payment state.
    public var billing: BillingState
    /// The period's offer.
    public var kind: PeriodKind
    /// Paid periods completed before the period now running (`renewal_index`).
    public var renewalIndex: Int
    /// A price increase the customer has not accepted is pending.
    public var priceIncreasePending: Bool
    /// The product of the period now running.
    public var productId: String

    /// Features from their parts.
    public init(
        autoRenew: Bool, billing: BillingState, kind: PeriodKind, renewalIndex: Int, priceIncreasePending: Bool, productId: String
    ) {
        self.autoRenew = autoRenew
        self.billing = billing
        self.kind = kind
        self.renewalIndex = renewalIndex
        self.priceIncreasePending = priceIncreasePending
        self.productId = productId
    }

    /// The tenure bucket of ``renewalIndex``: 0, 1, 2, 3 (3–5), 6 (6–11), 12 (12 or more).
    public var tenureBucket: Int {
        switch renewalIndex {
        case ..<3: max(renewalIndex, 0)
        case 3..<6: 3
        case 6..<12: 6
        default: 12
        }
    }
}
