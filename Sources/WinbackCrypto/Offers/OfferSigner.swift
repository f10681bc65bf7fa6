import Crypto
import WinbackCore

/// Signs promotional offers byte-compatibly with Apple's App Store Server Library (SPEC §8):
/// the V1 signature (`SKPaymentDiscount` / StoreKit 2 `promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`),
/// the V2 promotional-offer JWS and the introductory-offer-eligibility JWS.
public struct OfferSigner: Sendable {
    public let key: InAppPurchaseKey
    public let bundleId: String

    public init(key: InAppPurchaseKey, bundleId: String) {
        self.key = key
        self.bundleId = bundleId
    }

    /// The V1 message: `bundleId ⁣ keyId ⁣ productId ⁣ offerIdentifier ⁣ lower(appAccountToken) ⁣ lower(nonce) ⁣ timestamp`
    /// joined by U+2063 INVISIBLE SEPARATOR; `timestamp` in epoch milliseconds; an absent token keeps its slot empty.
    public func v1Message(productId: String, offerIdentifier: String, appAccountToken: String?, nonce: String, timestamp: Int64) -> String {
        [bundleId, key.keyId, productId, offerIdentifier, (appAccountToken ?? "").lowercased(), nonce.lowercased(), String(timestamp)]
            .joined(separator: "\u{2063}")
    }

    /// The V1 signature: ECDSA P-256 / SHA-256 over the UTF-8 message, DER, standard padded base64.
    public func signV1(productId: String, offerIdentifier: String, appAccountToken: String?, nonce: String, timestamp: Int64) throws -> String {
        let message = v1Message(productId: productId, offerIdentifier: offerIdentifier, appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp)
        let signature = try key.privateKey.signature(for: Array(message.utf8))
        return Base64.encodeStandard(signature.derRepresentation)
    }

    private var header: JSONValue {
        JSONText.object([("alg", .string("ES256")), ("kid", .string(key.keyId)), ("typ", .string("JWT"))])
    }

    private func baseClaims(audience: String, nonce: String, issuedAtSeconds: Int64) -> [(String, JSONValue)] {
        [("iss", .string(key.issuerId)), ("iat", .integer(issuedAtSeconds)), ("aud", .string(audience)), ("bid", .string(bundleId)),
         ("nonce", .string(nonce.lowercased()))]
    }

    /// The V2 promotional-offer JWS (`aud: "promotional-offer"`): integer `iat`, lower-case nonce, no `exp`.
    public func signV2(productId: String, offerIdentifier: String, transactionId: String?, nonce: String, issuedAtSeconds: Int64) throws -> String {
        var claims = baseClaims(audience: "promotional-offer", nonce: nonce, issuedAtSeconds: issuedAtSeconds)
        claims += [("productId", .string(productId)), ("offerIdentifier", .string(offerIdentifier))]
        if let transactionId { claims.append(("transactionId", .string(transactionId))) }
        return try JWSSigner(key: key.privateKey).sign(header: header, payload: JSONText.object(claims))
    }

    /// The introductory-offer-eligibility JWS (`aud: "introductory-offer-eligibility"`).
    public func signIntroductoryEligibility(
        productId: String, allowIntroductoryOffer: Bool, transactionId: String, nonce: String, issuedAtSeconds: Int64
    ) throws -> String {
        var claims = baseClaims(audience: "introductory-offer-eligibility", nonce: nonce, issuedAtSeconds: issuedAtSeconds)
        claims += [("productId", .string(productId)), ("allowIntroductoryOffer", .bool(allowIntroductoryOffer)), ("transactionId", .string(transactionId))]
        return try JWSSigner(key: key.privateKey).sign(header: header, payload: JSONText.object(claims))
    }
}
