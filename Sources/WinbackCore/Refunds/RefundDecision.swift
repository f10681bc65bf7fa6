import WinbackAppStore

/// What Winback answers one refund request with (docs/refunds.md), and the body of Send Consumption Information.
public struct RefundDecision: Sendable, Equatable {
    /// The policy that decided; ``overridePolicyId`` for an override; `nil` when no policy matched.
    public var policyId: String?
    /// What it answers.
    public var preference: RefundPreference
    /// `deliveryStatus`: ``delivered`` or ``undelivered``.
    public var deliveryStatus: String
    /// `sampleContentProvided`.
    public var sampleContentProvided: Bool

    /// The `policy_id` of a decision made by `refunds.overrides`.
    public static let overridePolicyId = "override"
    /// The asked transaction is a verified, unrevoked transaction of this app in the model.
    public static let delivered = "DELIVERED"
    /// Otherwise.
    public static let undelivered = "UNDELIVERED_OTHER"

    /// A decision from its parts.
    public init(policyId: String?, preference: RefundPreference, deliveryStatus: String, sampleContentProvided: Bool) {
        self.policyId = policyId
        self.preference = preference
        self.deliveryStatus = deliveryStatus
        self.sampleContentProvided = sampleContentProvided
    }

    /// The `ConsumptionRequest` body of Send Consumption Information (v2), keys in Apple's order:
    /// `{"customerConsented":true,"deliveryStatus":…,"sampleContentProvided":…,"refundPreference":…}` — no
    /// `refundPreference` for `NONE`, and never `consumptionPercentage` (Apple computes it for a subscription).
    public var body: String {
        var members: [(String, JSONValue)] = [
            ("customerConsented", .bool(true)), ("deliveryStatus", .string(deliveryStatus)),
            ("sampleContentProvided", .bool(sampleContentProvided)),
        ]
        if let preference = preference.refundPreference { members.append(("refundPreference", .string(preference))) }
        return JSONText.render(JSONText.object(members))
    }
}
