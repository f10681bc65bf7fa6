import Crypto
import Testing
import WinbackCrypto

/// The App Store Server API's bearer token (docs/sync.md).
@Suite struct ServerAPITokenTests {
    @Test func headerClaimsAndSignatureAreApples() throws {
        let privateKey = P256.Signing.PrivateKey()
        let key = InAppPurchaseKey(privateKey: privateKey, keyId: "2X9R4HXF34", issuerId: "57246542-96fe-1a63-e053-0824d011072a")
        let token = try ServerAPIToken(key: key, bundleId: "com.example.app", issuedAt: 1_795_046_400, lifetime: 99_999)
        let parts = token.value.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        #expect(
            Base64.decodeURL(parts[0]).map { String(decoding: $0, as: UTF8.self) } == #"{"alg":"ES256","kid":"2X9R4HXF34","typ":"JWT"}"#)
        #expect(
            Base64.decodeURL(parts[1]).map { String(decoding: $0, as: UTF8.self) }
                == #"{"iss":"57246542-96fe-1a63-e053-0824d011072a","iat":1795046400,"exp":1795050000,"aud":"appstoreconnect-v1","bid":"com.example.app"}"#
        )
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64.decodeURL(parts[2])))
        #expect(privateKey.publicKey.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8)))
        // The lifetime is capped at Apple's 60 minutes; the token is renewed 5 minutes before it ends.
        #expect(token.expiresAt - token.issuedAt == 3600)
        #expect(token.isFresh(at: 1_795_046_400 + 3600 - 301) && !token.isFresh(at: 1_795_046_400 + 3600 - 300))
        #expect(!"\(key)".contains(privateKey.pemRepresentation.dropFirst(30).prefix(20)))
    }
}
