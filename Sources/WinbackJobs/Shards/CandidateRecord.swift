import WinbackAnalytics
import WinbackAppStore
import WinbackCore

/// A campaign candidate in a partial's `candidates.wbr` (docs/sharding.md): the campaign id and the account
/// (``CampaignSelector/candidates(_:timelines:asOf:)``) as a JSON array — account key, `originalTransactionId`,
/// product, offer identifier, paid days, days since lapse, days to expiry, lapse reason, `transactionId`, app
/// account token, eligible win-back offer ids. Audience and kind of offer are the campaign's, from the config.
enum CandidateRecord {
    /// The record's fields for `account`.
    static func fields(_ account: EligibleAccount) -> [[UInt8]] {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        func integer(_ value: Int64?) -> JSONValue { value.map(JSONValue.integer) ?? .null }
        let values: [JSONValue] = [
            .string(account.accountKey), .string(account.originalTransactionId), .string(account.productId),
            text(account.offerIdentifier), .integer(account.paidDays), integer(account.daysSinceLapse), integer(account.daysToExpiry),
            text(account.lapseReason?.rawValue), .string(account.transactionId), text(account.appAccountToken),
            account.eligibleWinBackOfferIds.map { JSONText.array($0.map(JSONValue.string)) } ?? .null,
        ]
        return [Array(account.campaignId.utf8), Array(JSONText.render(JSONText.array(values)).utf8)]
    }

    /// The candidate of `campaign` that `json` (the record's second field) holds; `nil` when it is not of that shape.
    static func account(_ json: [UInt8], campaign: Campaign) -> EligibleAccount? {
        guard case .array(let elements)? = try? JSONParser.parse(json), elements.count == 11 else { return nil }
        let values = elements.map(\.value)
        func text(_ index: Int) -> String?? {
            switch values[index] {
            case .string(let text): .some(text)
            case .null: .some(nil)
            default: nil
            }
        }
        func integer(_ index: Int) -> Int64?? {
            switch values[index] {
            case .integer(let value): .some(value)
            case .null: .some(nil)
            default: nil
            }
        }
        guard case .string(let accountKey) = values[0], case .string(let originalTransactionId) = values[1],
            case .string(let productId) = values[2], let offerIdentifier = text(3), case .integer(let paidDays) = values[4],
            let daysSinceLapse = integer(5), let daysToExpiry = integer(6), let lapseReason = text(7),
            case .string(let transactionId) = values[8], let appAccountToken = text(9)
        else { return nil }
        var offers: [String]? = nil
        switch values[10] {
        case .null: break
        case .array(let ids):
            offers = []
            for id in ids {
                guard case .string(let offer) = id.value else { return nil }
                offers?.append(offer)
            }
        default: return nil
        }
        var account = EligibleAccount(
            campaignId: campaign.id, accountKey: accountKey, originalTransactionId: originalTransactionId, variant: .treatment,
            audience: campaign.audience, productId: productId, offerIdentifier: offerIdentifier, paidDays: paidDays,
            daysSinceLapse: daysSinceLapse, daysToExpiry: daysToExpiry, lapseReason: lapseReason.flatMap(LapseReason.init(rawValue:)),
            transactionId: transactionId, appAccountToken: appAccountToken)
        account.offerKind = campaign.offerKind
        account.eligibleWinBackOfferIds = offers
        return account
    }
}
