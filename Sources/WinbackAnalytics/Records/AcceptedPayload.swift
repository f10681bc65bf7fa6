import WinbackAppStore

/// A verified (or, with `acceptUnsignedPayloads`, trusted) and decoded payload.
public enum AcceptedPayload: Sendable, Equatable {
    case transaction(JWSTransactionDecodedPayload)
    case renewalInfo(JWSRenewalInfoDecodedPayload)
    case notification(ResponseBodyV2DecodedPayload)
}
