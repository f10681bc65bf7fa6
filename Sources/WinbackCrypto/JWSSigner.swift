import Crypto
import WinbackCore

/// Creates ES256 compact JWS: `base64url(header).base64url(payload).base64url(r‖s)`.
///
/// Used for the V2 promotional-offer and introductory-offer-eligibility JWS (header
/// `{"alg":"ES256","kid":…,"typ":"JWT"}`) and, with an `x5c` header, for the synthetic sample exports.
public struct JWSSigner: Sendable {
    public let key: P256.Signing.PrivateKey

    public init(key: P256.Signing.PrivateKey) {
        self.key = key
    }

    /// Signs `payload` under `header`; both are rendered compactly with members in their given order.
    public func sign(header: JSONValue, payload: JSONValue) throws -> String {
        let signingInput = Base64.encodeURL(Array(JSONText.render(header).utf8)) + "." + Base64.encodeURL(Array(JSONText.render(payload).utf8))
        let signature = try key.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Base64.encodeURL(signature.rawRepresentation)
    }
}
