import WinbackCore
import WinbackCrypto

/// Builds one `offers.ndjson` line (SPEC §8): one clock read and one nonce per offer, shared by the V1
/// signature and both JWS; `expiresAt = issuedAt + 24 h`.
enum OfferLine {
    static func make(
        _ account: EligibleAccount, campaign: Campaign, signer: OfferSigner, nonce: String, timestampMilliseconds: Int64
    ) throws -> String {
        let kinds = Set(campaign.signatures)
        let offer = account.offerIdentifier ?? ""
        let issuedAtSeconds = InstantFormat.floorDivide(timestampMilliseconds, 1000)
        let v1 = kinds.contains(.v1)
            ? try signer.signV1(productId: account.productId, offerIdentifier: offer, appAccountToken: account.appAccountToken, nonce: nonce, timestamp: timestampMilliseconds)
            : nil
        let v2 = kinds.contains(.v2)
            ? try signer.signV2(productId: account.productId, offerIdentifier: offer, transactionId: account.transactionId, nonce: nonce, issuedAtSeconds: issuedAtSeconds)
            : nil
        let intro = kinds.contains(.intro)
            ? try signer.signIntroductoryEligibility(
                productId: account.productId, allowIntroductoryOffer: campaign.allowIntroductoryOffer ?? false, transactionId: account.transactionId,
                nonce: nonce, issuedAtSeconds: issuedAtSeconds)
            : nil
        func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        return JSONText.render(JSONText.object([
            ("campaignId", .string(account.campaignId)), ("accountKey", .string(account.accountKey)), ("appAccountToken", text(account.appAccountToken)),
            ("originalTransactionId", .string(account.originalTransactionId)), ("transactionId", .string(account.transactionId)),
            ("productId", .string(account.productId)), ("offerIdentifier", text(account.offerIdentifier)), ("keyId", .string(signer.key.keyId)),
            ("nonce", .string(nonce.lowercased())), ("timestamp", .integer(timestampMilliseconds)), ("signatureV1", text(v1)), ("jwsV2", text(v2)),
            ("jwsIntroEligibility", text(intro)), ("issuedAt", .string(InstantFormat.iso8601(milliseconds: timestampMilliseconds))),
            ("expiresAt", .string(InstantFormat.iso8601(milliseconds: timestampMilliseconds + InstantFormat.day))),
        ]))
    }
}
