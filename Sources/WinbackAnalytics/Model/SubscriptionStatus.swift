/// A subscription's status at `T`, Apple's statuses 1–5 (README: The model in brief): `active` if some coverage contains
/// `T`; else `revoked` if the latest transaction was revoked; else `billing_grace_period` if in billing
/// retry with `gracePeriodExpiresDate > T`; else `billing_retry` if in billing retry; else `expired`.
public enum SubscriptionStatus: String, CaseIterable, Sendable, Hashable {
    case active
    case expired
    case billingRetry = "billing_retry"
    case billingGracePeriod = "billing_grace_period"
    case revoked
}
