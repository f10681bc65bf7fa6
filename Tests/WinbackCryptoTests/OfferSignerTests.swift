import Crypto
import Foundation
import Testing
import WinbackAppStore
import WinbackCrypto
import WinbackTestSupport

/// Offer signatures against the vectors made with Apple's App Store Server Library.
@Suite struct OfferSignerTests {
    static func signer() throws -> (OfferSigner, ConformanceVectors) {
        let vectors = try ConformanceVectors()
        let pem = try #require(vectors.json["iap_key"]?["private_key_pkcs8_pem_TEST_ONLY"]?.stringValue)
        let key = try InAppPurchaseKey(
            pem: pem, keyId: vectors.json["iap_key"]?["key_id"]?.stringValue ?? "",
            issuerId: vectors.json["iap_key"]?["issuer_id"]?.stringValue ?? "")
        return (OfferSigner(key: key, bundleId: vectors.string("bundle_id")), vectors)
    }

    static func publicKey(_ vectors: ConformanceVectors) throws -> P256.Signing.PublicKey {
        try P256.Signing.PublicKey(pemRepresentation: try #require(vectors.json["iap_key"]?["public_key_pem"]?.stringValue))
    }

    static func v1Inputs(_ vectors: ConformanceVectors) throws -> (
        product: String, offer: String, token: String, nonce: String, timestamp: Int64
    ) {
        let v1 = try #require(vectors.json["v1"])
        guard case .integer(let timestamp)? = v1["timestamp_ms"] else { throw FixtureError(description: "timestamp") }
        return (
            v1["product_id"]?.stringValue ?? "", v1["offer_id"]?.stringValue ?? "", v1["app_account_token_input"]?.stringValue ?? "",
            v1["nonce"]?.stringValue ?? "", timestamp
        )
    }

    @Test func v1MessageIsByteIdenticalToApples() throws {
        let (signer, vectors) = try Self.signer()
        let input = try Self.v1Inputs(vectors)
        let message = signer.v1Message(
            productId: input.product, offerIdentifier: input.offer, appAccountToken: input.token, nonce: input.nonce,
            timestamp: input.timestamp)
        let hex = Array(message.utf8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        #expect(hex == vectors.json["v1"]?["message_utf8_hex"]?.stringValue)
    }

    @Test func applesV1SignatureVerifiesWithOurMessage() throws {
        let (signer, vectors) = try Self.signer()
        let input = try Self.v1Inputs(vectors)
        let message = signer.v1Message(
            productId: input.product, offerIdentifier: input.offer, appAccountToken: input.token, nonce: input.nonce,
            timestamp: input.timestamp)
        let encoded = try #require(vectors.json["v1"]?["signature_b64_der"]?.stringValue)
        let der = try #require(Base64.decodeStandard(encoded))
        let signature = try P256.Signing.ECDSASignature(derRepresentation: der)
        #expect(try Self.publicKey(vectors).isValidSignature(signature, for: Array(message.utf8)))
    }

    @Test func ourV1SignatureVerifiesWithTheVectorsPublicKey() throws {
        let (signer, vectors) = try Self.signer()
        let input = try Self.v1Inputs(vectors)
        let encoded = try signer.signV1(
            productId: input.product, offerIdentifier: input.offer, appAccountToken: input.token, nonce: input.nonce,
            timestamp: input.timestamp)
        let der = try #require(Base64.decodeStandard(encoded))
        let message = signer.v1Message(
            productId: input.product, offerIdentifier: input.offer, appAccountToken: input.token, nonce: input.nonce,
            timestamp: input.timestamp)
        #expect(
            try Self.publicKey(vectors).isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: der), for: Array(message.utf8)))
    }

    @Test func emptyTokenKeepsItsSlot() throws {
        let (signer, _) = try Self.signer()
        let message = signer.v1Message(productId: "p", offerIdentifier: "o", appAccountToken: nil, nonce: "N", timestamp: 5)
        #expect(message == "com.example.winback\u{2063}ABCDEFGHIJ\u{2063}p\u{2063}o\u{2063}\u{2063}n\u{2063}5")
    }

    /// Header and claims of a JWS as (name, JSON type) pairs, sorted by name.
    static func shape(_ jws: String) throws -> (header: [String], claims: [String: String]) {
        let parts = jws.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        let header = try JSONParser.parse(try #require(Base64.decodeURL(parts[0])))
        let payload = try JSONParser.parse(try #require(Base64.decodeURL(parts[1])))
        return (
            (header.objectMembers ?? []).map { "\($0.key)=\(JSONText.render($0.value))" }.sorted(),
            Dictionary(uniqueKeysWithValues: (payload.objectMembers ?? []).map { ($0.key, $0.value.typeName) })
        )
    }

    @Test func v2JWSHasApplesHeaderAndClaimTypesAndVerifies() throws {
        let (signer, vectors) = try Self.signer()
        let ours = try signer.signV2(
            productId: "com.example.winback.monthly", offerIdentifier: "retention.annual.1", transactionId: "2000000812345678",
            nonce: "83205803-6E22-4308-9F3C-C1E9E90182E8", issuedAtSeconds: 1_795_352_404)
        let apple = try Self.shape(vectors.string("v2_promotional_offer_jws"))
        let mine = try Self.shape(ours)
        #expect(mine.header == apple.header)
        #expect(mine.header == [#"alg="ES256""#, #"kid="ABCDEFGHIJ""#, #"typ="JWT""#])
        #expect(mine.claims == apple.claims)
        #expect(mine.claims["iat"] == "integer")
        let payload = try JSONParser.parse(try #require(Base64.decodeURL(String(ours.split(separator: ".")[1]))))
        #expect(payload["nonce"] == .string("83205803-6e22-4308-9f3c-c1e9e90182e8"))
        #expect(payload["exp"] == nil)
        try Self.expectVerifies(ours, vectors)
    }

    @Test func introEligibilityJWSHasApplesHeaderAndClaimTypesAndVerifies() throws {
        let (signer, vectors) = try Self.signer()
        let ours = try signer.signIntroductoryEligibility(
            productId: "com.example.winback.monthly", allowIntroductoryOffer: false, transactionId: "704289575346743381",
            nonce: "c51272e2-5859-4be2-a9e1-507864c3b840", issuedAtSeconds: 1_795_352_404)
        let apple = try Self.shape(vectors.string("intro_offer_eligibility_jws"))
        let mine = try Self.shape(ours)
        #expect(mine.header == apple.header)
        #expect(mine.claims == apple.claims)
        #expect(mine.claims["allowIntroductoryOffer"] == "boolean")
        try Self.expectVerifies(ours, vectors)
    }

    /// The exact text the JWS sign, member order and escaping included (the offers are signed without a
    /// JSON tree; this pins the bytes to those of the rendering through ``JSONText``).
    @Test func jwsHeaderAndClaimsAreTheseBytes() throws {
        let (signer, _) = try Self.signer()
        func text(_ jws: String, _ index: Int) throws -> String {
            String(decoding: try #require(Base64.decodeURL(String(jws.split(separator: ".")[index]))), as: UTF8.self)
        }
        let issuer = signer.key.issuerId
        let v2 = try signer.signV2(
            productId: "com.example.\"quoted\"\\", offerIdentifier: "o\u{1}", transactionId: "2000000812345678", nonce: "AB-c",
            issuedAtSeconds: -5)
        #expect(try text(v2, 0) == #"{"alg":"ES256","kid":"ABCDEFGHIJ","typ":"JWT"}"#)
        #expect(
            try text(v2, 1)
                == #"{"iss":"\#(issuer)","iat":-5,"aud":"promotional-offer","bid":"com.example.winback","nonce":"ab-c","productId":"com.example.\"quoted\"\\","offerIdentifier":"o\u0001","transactionId":"2000000812345678"}"#
        )
        let noTransaction = try signer.signV2(productId: "p", offerIdentifier: "o", transactionId: nil, nonce: "n", issuedAtSeconds: 7)
        #expect(
            try text(noTransaction, 1)
                == #"{"iss":"\#(issuer)","iat":7,"aud":"promotional-offer","bid":"com.example.winback","nonce":"n","productId":"p","offerIdentifier":"o"}"#
        )
        let intro = try signer.signIntroductoryEligibility(
            productId: "p", allowIntroductoryOffer: true, transactionId: "704289575346743381", nonce: "N", issuedAtSeconds: 1_795_352_404)
        #expect(try text(intro, 0) == #"{"alg":"ES256","kid":"ABCDEFGHIJ","typ":"JWT"}"#)
        #expect(
            try text(intro, 1)
                == #"{"iss":"\#(issuer)","iat":1795352404,"aud":"introductory-offer-eligibility","bid":"com.example.winback","nonce":"n","productId":"p","allowIntroductoryOffer":true,"transactionId":"704289575346743381"}"#
        )
    }

    static func expectVerifies(_ jws: String, _ vectors: ConformanceVectors) throws {
        let parts = jws.split(separator: ".")
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64.decodeURL(String(parts[2]))))
        #expect(try publicKey(vectors).isValidSignature(signature, for: Array("\(parts[0]).\(parts[1])".utf8)))
    }

    @Test func keyThatIsNotP256IsRefused() throws {
        let p384 = P384.Signing.PrivateKey().pemRepresentation
        #expect(throws: InAppPurchaseKey.LoadError.notP256) { try InAppPurchaseKey(pem: p384, keyId: "K", issuerId: "I") }
        #expect(throws: InAppPurchaseKey.LoadError.notPEM) { try InAppPurchaseKey(pem: "garbage", keyId: "K", issuerId: "I") }
    }
}
