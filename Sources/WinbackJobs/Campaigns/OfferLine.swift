import WinbackCore
import WinbackCrypto

/// Builds one `offers.ndjson` line (SPEC §8): one clock read and one nonce per offer, shared by the V1
/// signature and both JWS; `expiresAt = issuedAt + 24 h`.
enum OfferLine {
    static func make(
        _ account: EligibleAccount, campaign: Campaign, signer: OfferSigner, nonce: String, timestampMilliseconds: Int64
    ) throws -> String {
        let kinds = campaign.signatures
        let offer = account.offerIdentifier ?? ""
        let issuedAtSeconds = InstantFormat.floorDivide(timestampMilliseconds, 1000)
        let v1 =
            kinds.contains(.v1)
            ? try signer.signV1(
                productId: account.productId, offerIdentifier: offer, appAccountToken: account.appAccountToken, nonce: nonce,
                timestamp: timestampMilliseconds)
            : nil
        let v2 =
            kinds.contains(.v2)
            ? try signer.signV2(
                productId: account.productId, offerIdentifier: offer, transactionId: account.transactionId, nonce: nonce,
                issuedAtSeconds: issuedAtSeconds)
            : nil
        let intro =
            kinds.contains(.intro)
            ? try signer.signIntroductoryEligibility(
                productId: account.productId, allowIntroductoryOffer: campaign.allowIntroductoryOffer ?? false,
                transactionId: account.transactionId,
                nonce: nonce, issuedAtSeconds: issuedAtSeconds)
            : nil
        var line = JSONObjectBytes(capacity: 1536)
        line.add("campaignId", account.campaignId)
        line.add("accountKey", account.accountKey)
        line.add("appAccountToken", account.appAccountToken)
        line.add("originalTransactionId", account.originalTransactionId)
        line.add("transactionId", account.transactionId)
        line.add("productId", account.productId)
        line.add("offerIdentifier", account.offerIdentifier)
        line.add("keyId", signer.key.keyId)
        line.add("nonce", nonce.lowercased())
        line.add("timestamp", timestampMilliseconds)
        line.add("signatureV1", v1)
        line.add("jwsV2", v2)
        line.add("jwsIntroEligibility", intro)
        line.add("issuedAt", InstantFormat.iso8601(milliseconds: timestampMilliseconds))
        line.add("expiresAt", InstantFormat.iso8601(milliseconds: timestampMilliseconds + InstantFormat.day))
        return String(decoding: line.finish(), as: UTF8.self)
    }
}
