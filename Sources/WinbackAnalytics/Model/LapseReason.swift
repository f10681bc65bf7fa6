/// Why a span of coverage ended (README: The model in brief), for the lapse at `L` whose last covering transaction is `Y`.
///
/// `refund` if `Y.revocationDate == L`; else `returned` if a later span starts before `T`; else from the
/// latest renewal info `R`: `billing_retry` if `R.isInBillingRetryPeriod`, else by
/// `R.expirationIntent` 1 `voluntary`, 2 `billing_error`, 3 `price_increase`, 4 `product_unavailable`,
/// 5 `other`; `unknown` when there is no `R`, no intent, or an intent outside 1–5.
public enum LapseReason: String, CaseIterable, Sendable, Hashable {
    case voluntary
    case priceIncrease = "price_increase"
    case billingError = "billing_error"
    case billingRetry = "billing_retry"
    case productUnavailable = "product_unavailable"
    case other
    case unknown
    case refund
    case returned

    /// The reason `R`'s state gives when neither refund nor return applies.
    public static func fromRenewal(_ renewal: RenewalState?) -> LapseReason {
        guard let renewal else { return .unknown }
        if renewal.isInBillingRetry { return .billingRetry }
        switch renewal.expirationIntent {
        case 1?: return .voluntary
        case 2?: return .billingError
        case 3?: return .priceIncrease
        case 4?: return .productUnavailable
        case 5?: return .other
        default: return .unknown
        }
    }
}
