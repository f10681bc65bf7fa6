/// The signed payloads a campaign issues per offer (README: Campaigns).
public enum SignatureKind: String, CaseIterable, Sendable {
    /// V1 promotional offer signature (DER, base64).
    case v1
    /// V2 promotional offer JWS.
    case v2
    /// Introductory-offer eligibility JWS.
    case intro
}
