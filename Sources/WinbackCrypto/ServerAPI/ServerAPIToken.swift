import WinbackAppStore

/// The bearer token of the App Store Server API (docs/sync.md): an ES256 JWT signed with the In-App Purchase
/// key, header `{"alg":"ES256","kid":…,"typ":"JWT"}`, claims `iss`, `iat`, `exp`, `aud`, `bid` with integer
/// NumericDate seconds.
public struct ServerAPIToken: Sendable {
    /// The audience Apple requires.
    public static let audience = "appstoreconnect-v1"
    /// Apple refuses tokens that live longer than 60 minutes.
    public static let maximumLifetime: Int64 = 3600

    /// The compact JWT (a secret while it lives: never logged).
    public let value: String
    /// `iat`, epoch seconds.
    public let issuedAt: Int64
    /// `exp`, epoch seconds.
    public let expiresAt: Int64

    /// Signs a token for `bundleId` issued at `issuedAt` (epoch seconds) that lives `lifetime` seconds
    /// (at most ``maximumLifetime``).
    public init(key: InAppPurchaseKey, bundleId: String, issuedAt: Int64, lifetime: Int64 = 1200) throws {
        let expiresAt = issuedAt + min(max(lifetime, 1), Self.maximumLifetime)
        let header = JSONText.object(["alg": .string("ES256"), "kid": .string(key.keyId), "typ": .string("JWT")])
        let claims = JSONText.object([
            "iss": .string(key.issuerId), "iat": .integer(issuedAt), "exp": .integer(expiresAt), "aud": .string(Self.audience),
            "bid": .string(bundleId),
        ])
        value = try JWSSigner(key: key.privateKey).sign(header: header, payload: claims)
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }

    /// Whether the token still has more than `margin` seconds to live at `now` (epoch seconds); renew otherwise.
    public func isFresh(at now: Int64, margin: Int64 = 300) -> Bool {
        now >= issuedAt && now + margin < expiresAt
    }
}
