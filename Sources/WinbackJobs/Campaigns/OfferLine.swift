import WinbackAppStore
import WinbackCore
import WinbackCrypto

/// Builds one `offers.ndjson` line (README: Campaigns).
enum OfferLine {
    /// The line of a signed promotional offer: one clock read and one nonce, shared by the V1 signature and
    /// both JWS; `expiresAt = issuedAt + 24 h`.
    static func signed(
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
        return line(
            account, keyId: signer.key.keyId, nonce: nonce.lowercased(), timestampMilliseconds: timestampMilliseconds,
            signatures: (v1, v2, intro))
    }

    /// The line of an Apple win-back offer: who to show it to, with no nonce, time, key or signature (StoreKit
    /// redeems it with its win-back purchase option).
    static func unsigned(_ account: EligibleAccount) -> String {
        line(account, keyId: nil, nonce: nil, timestampMilliseconds: nil, signatures: (nil, nil, nil))
    }

    /// The line of an offer code (docs/campaigns.md): the code and its redemption URL, with no nonce, time, key or
    /// signature.
    static func offerCode(_ account: EligibleAccount, code: String, appAppleId: Int64) -> String {
        line(
            account, keyId: nil, nonce: nil, timestampMilliseconds: nil, signatures: (nil, nil, nil),
            code: (code, OfferCodeAssignment.redemptionURL(code: code, appAppleId: appAppleId)))
    }

    private static func line(
        _ account: EligibleAccount, keyId: String?, nonce: String?, timestampMilliseconds: Int64?,
        signatures: (v1: String?, v2: String?, intro: String?), code: (code: String, url: String)? = nil
    ) -> String {
        var line = JSONObjectBytes(capacity: 1536)
        line.add("campaignId", account.campaignId)
        line.add("accountKey", account.accountKey)
        line.add("appAccountToken", account.appAccountToken)
        line.add("originalTransactionId", account.originalTransactionId)
        line.add("transactionId", account.transactionId)
        line.add("productId", account.productId)
        line.add("offerIdentifier", account.offerIdentifier)
        line.add("offerType", account.offerKind.rawValue)
        line.add("eligibleWinBackOfferIds", account.eligibleWinBackOfferIds)
        line.add("offerCode", code?.code)
        line.add("redemptionURL", code?.url)
        line.add("keyId", keyId)
        line.add("nonce", nonce)
        line.add("timestamp", timestampMilliseconds)
        line.add("signatureV1", signatures.v1)
        line.add("jwsV2", signatures.v2)
        line.add("jwsIntroEligibility", signatures.intro)
        line.add("issuedAt", timestampMilliseconds.map { InstantFormat.iso8601(milliseconds: $0) })
        line.add("expiresAt", timestampMilliseconds.map { InstantFormat.iso8601(milliseconds: $0 + InstantFormat.day) })
        return String(decoding: line.finish(), as: UTF8.self)
    }
}
