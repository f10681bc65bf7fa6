import WinbackAppStore

/// The config's `refunds` block (docs/refunds.md): how `winback refunds` answers `CONSUMPTION_REQUEST`s.
/// Without it nothing is sent, and the nightly report still lists the requests.
public struct RefundSettings: Sendable, Equatable {
    /// `sampleContentProvided`: `true`, `false` or `"free_trial"` (default `false`).
    public var sampleContent: SampleContentSetting
    /// `policies`, in order: the first whose `when` holds decides.
    public var policies: [RefundPolicy]
    /// `overrides`: the path of a CSV file `key,preference` (config-relative), or `nil`.
    public var overridesFile: String?

    /// Settings from their parts (`customerConsented` is always true: anything else is refused).
    public init(sampleContent: SampleContentSetting = .always(false), policies: [RefundPolicy], overridesFile: String? = nil) {
        self.sampleContent = sampleContent
        self.policies = policies
        self.overridesFile = overridesFile
    }

    /// Parses the `refunds` object; every error names its key.
    static func parse(_ object: ConfigObject) throws(ConfigError) -> RefundSettings {
        try object.allowOnly(["customerConsented", "sampleContentProvided", "policies", "overrides"])
        let consent = try object.required("customerConsented")
        guard consent == .bool(true) else {
            throw ConfigError(
                key: "refunds.customerConsented",
                message:
                    "must be true (Apple accepts consumption data only with the customer's consent), found \(FieldValue.describe(consent))"
            )
        }
        let sample: SampleContentSetting
        switch object.optional("sampleContentProvided") {
        case nil: sample = .always(false)
        case .bool(let flag)?: sample = .always(flag)
        case .string("free_trial")?: sample = .freeTrial
        case let other?:
            throw ConfigError(
                key: "refunds.sampleContentProvided", message: "expected true, false or \"free_trial\", found \(FieldValue.describe(other))"
            )
        }
        guard case .array(let elements) = try object.required("policies") else {
            throw ConfigError(
                key: "refunds.policies", message: "expected an array, found \(FieldValue.describe(object.optional("policies") ?? .null))")
        }
        var policies: [RefundPolicy] = []
        for (index, element) in elements.enumerated() {
            let policy = try RefundPolicy.parse(element.value, key: "refunds.policies[\(index)]")
            guard !policies.contains(where: { $0.id == policy.id }) else {
                throw ConfigError(key: "refunds.policies[\(index)].id", message: "'\(policy.id)' is used by an earlier policy")
            }
            guard policy.id != RefundDecision.overridePolicyId else {
                throw ConfigError(
                    key: "refunds.policies[\(index)].id", message: "'\(policy.id)' names the overrides in reports; choose another id")
            }
            policies.append(policy)
        }
        return RefundSettings(sampleContent: sample, policies: policies, overridesFile: try object.optionalString("overrides"))
    }

    /// The decision for `request`: the override of its account token or original transaction id when
    /// `overrides` has one, else the first policy whose `when` holds, else no policy (``RefundPreference/noResponse``).
    public func decide(_ request: RefundRequest, overrides: RefundOverrides) -> RefundDecision {
        let sample = sampleContent.value(for: request)
        let delivery = request.isDelivered ? RefundDecision.delivered : RefundDecision.undelivered
        if let preference = overrides.preference(
            appAccountToken: request.appAccountToken, originalTransactionId: request.originalTransactionId)
        {
            return RefundDecision(
                policyId: RefundDecision.overridePolicyId, preference: preference, deliveryStatus: delivery, sampleContentProvided: sample)
        }
        guard let policy = policies.first(where: { $0.conditions.admit(request) }) else {
            return RefundDecision(policyId: nil, preference: .noResponse, deliveryStatus: delivery, sampleContentProvided: sample)
        }
        return RefundDecision(policyId: policy.id, preference: policy.preference, deliveryStatus: delivery, sampleContentProvided: sample)
    }
}
