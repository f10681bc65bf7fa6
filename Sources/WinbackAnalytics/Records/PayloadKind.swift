/// Which Apple payload a JWS or decoded object is expected to hold, decided by where it was found.
public enum PayloadKind: String, Sendable, Hashable {
    /// `signedTransactionInfo`, `signedTransactions[i]`, or a decoded transaction object.
    case transaction
    /// `signedRenewalInfo`, or a decoded renewal info object.
    case renewalInfo
    /// `signedPayload`: an App Store Server Notifications V2 body.
    case notification
}
