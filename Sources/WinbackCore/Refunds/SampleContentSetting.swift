/// `refunds.sampleContentProvided` (docs/refunds.md): what the answer's `sampleContentProvided` says.
public enum SampleContentSetting: Sendable, Equatable {
    /// The same for every request.
    case always(Bool)
    /// `"free_trial"`: true when the subscription had a free-trial introductory period before the asked transaction.
    case freeTrial

    /// The value for `request`.
    public func value(for request: RefundRequest) -> Bool {
        switch self {
        case .always(let value): value
        case .freeTrial: request.hadFreeTrialBefore
        }
    }
}
