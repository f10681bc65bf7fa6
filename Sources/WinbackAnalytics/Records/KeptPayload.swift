/// What the subscription model keeps of an accepted payload, built by ``PayloadCompactor`` on the
/// thread that verified it, so the decoded payload's strings are freed where they were allocated.
public enum KeptPayload: Sendable, Equatable {
    case transaction(SubscriptionTransaction)
    case renewalInfo(RenewalState)
    /// A notification (its nested records are kept on their own).
    case notification(NotificationEvent)
    /// Payloads without the ids to key them.
    case ignored
}
