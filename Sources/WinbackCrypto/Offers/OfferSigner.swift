import Crypto
import WinbackAppStore

/// Signs promotional offers byte-compatibly with Apple's App Store Server Library (README: Campaigns):
/// the V1 signature (`SKPaymentDiscount` / StoreKit 2 `promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`),
/// the V2 promotional-offer JWS and the introductory-offer-eligibility JWS.
public struct OfferSigner: Sendable {
    /// The In-App Purchase key.
    public let key: InAppPurchaseKey
    /// The app's bundle identifier (the V2 `bid` claim, the V1 message's app).
    public let bundleId: String
    /// The JWS header segment, base64url of `{"alg":"ES256","kid":…,"typ":"JWT"}`: the same for every offer.
    private let encodedHeader: [UInt8]

    /// A signer for `bundleId` with `key`.
    public init(key: InAppPurchaseKey, bundleId: String) {
        self.key = key
        self.bundleId = bundleId
        encodedHeader = JWSSigner.encode(
            header: JSONText.object([("alg", .string("ES256")), ("kid", .string(key.keyId)), ("typ", .string("JWT"))]))
    }

    /// The V1 message: `bundleId ⁣ keyId ⁣ productId ⁣ offerIdentifier ⁣ lower(appAccountToken) ⁣ lower(nonce) ⁣ timestamp`
    /// joined by U+2063 INVISIBLE SEPARATOR; `timestamp` in epoch milliseconds; an absent token keeps its slot empty.
    public func v1Message(productId: String, offerIdentifier: String, appAccountToken: String?, nonce: String, timestamp: Int64) -> String {
        [bundleId, key.keyId, productId, offerIdentifier, (appAccountToken ?? "").lowercased(), nonce.lowercased(), String(timestamp)]
            .joined(separator: "\u{2063}")
    }

    /// The V1 signature: ECDSA P-256 / SHA-256 over the UTF-8 message, DER, standard padded base64.
    public func signV1(productId: String, offerIdentifier: String, appAccountToken: String?, nonce: String, timestamp: Int64) throws
        -> String
    {
        let message = v1Message(
            productId: productId, offerIdentifier: offerIdentifier, appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp)
        let signature = try key.privateKey.signature(for: Array(message.utf8))
        return Base64.encodeStandard(signature.derRepresentation)
    }

    /// The claims both JWS start with: `iss`, `iat` (integer seconds), `aud`, `bid`, lower-case `nonce`.
    private func baseClaims(audience: String, nonce: String, issuedAtSeconds: Int64) -> JSONObjectBytes {
        var claims = JSONObjectBytes(capacity: 320)
        claims.add("iss", key.issuerId)
        claims.add("iat", issuedAtSeconds)
        claims.add("aud", audience)
        claims.add("bid", bundleId)
        claims.add("nonce", nonce.lowercased())
        return claims
    }

    /// The V2 promotional-offer JWS (`aud: "promotional-offer"`): integer `iat`, lower-case nonce, no `exp`.
    public func signV2(productId: String, offerIdentifier: String, transactionId: String?, nonce: String, issuedAtSeconds: Int64) throws
        -> String
    {
        var claims = baseClaims(audience: "promotional-offer", nonce: nonce, issuedAtSeconds: issuedAtSeconds)
        claims.add("productId", productId)
        claims.add("offerIdentifier", offerIdentifier)
        if let transactionId { claims.add("transactionId", transactionId) }
        return try JWSSigner(key: key.privateKey).sign(encodedHeader: encodedHeader, payload: claims.finish())
    }

    /// The introductory-offer-eligibility JWS (`aud: "introductory-offer-eligibility"`).
    public func signIntroductoryEligibility(
        productId: String, allowIntroductoryOffer: Bool, transactionId: String, nonce: String, issuedAtSeconds: Int64
    ) throws -> String {
        var claims = baseClaims(audience: "introductory-offer-eligibility", nonce: nonce, issuedAtSeconds: issuedAtSeconds)
        claims.add("productId", productId)
        claims.add("allowIntroductoryOffer", allowIntroductoryOffer)
        claims.add("transactionId", transactionId)
        return try JWSSigner(key: key.privateKey).sign(encodedHeader: encodedHeader, payload: claims.finish())
    }
}
