import Foundation
import WinbackCore
import WinbackCrypto

/// Eligibility and signing for every campaign of a run (SPEC §7, §8, §10).
///
/// A day already in the ledger for a campaign is re-emitted from the ledger (same accounts, same offers);
/// otherwise accounts are selected (the ledger supplies the cooldown) and treatment offers signed, a chunk
/// of accounts at a time, each chunk handed to the caller (files, ledger) before the next is signed.
/// With `isSigning` false (reject rate over the threshold) nothing is signed and nothing is to be written.
struct CampaignStage {
    var campaigns: [Campaign]
    var signer: OfferSigner?
    var ledger: OfferLedger?
    var isSigning: Bool
    var now: @Sendable () -> Date
    var nonce: @Sendable () -> String
    /// Accounts signed per chunk: enough to keep every core busy, small enough that the signed lines
    /// in memory stay a few megabytes.
    var chunkSize = 4096

    /// Per campaign, in id order: eligible, treatment, holdout, signed.
    typealias Counts = (id: String, eligible: Int, treatment: Int, holdout: Int, signed: Int)

    /// Reads what the ledger knows about each campaign for the day, in campaign-id order.
    func plan(calendar: ReportCalendar) throws -> [CampaignPlan] {
        let asOf = calendar.asOfLabel
        let dayNumber = InstantFormat.days(year: Int64(calendar.year), month: Int64(calendar.month), day: Int64(calendar.day))
        return try campaigns.sorted(by: { CodePointOrder.less($0.id, $1.id) }).map { campaign in
            let stored = try ledger?.selections(campaign: campaign.id, asOf: asOf) ?? []
            var coolingDown: Set<String> = []
            if stored.isEmpty, campaign.cooldownDays > 0, let ledger {
                coolingDown = try ledger.accounts(
                    campaign: campaign.id, from: InstantFormat.date(days: dayNumber - campaign.cooldownDays), until: asOf)
            }
            return CampaignPlan(campaign: campaign, stored: stored, coolingDown: coolingDown)
        }
    }

    /// Selects and signs every planned campaign, handing each chunk to `emit` in campaign then account-key order.
    func run(_ plans: [CampaignPlan], model: SubscriptionModel, calendar: ReportCalendar, emit: (CampaignChunk) throws -> Void) throws
        -> [Counts]
    {
        let selector = CampaignSelector(holdoutBucket: HoldoutHash.bucket)
        var perCampaign: [Counts] = []
        for plan in plans {
            let campaign = plan.campaign
            var counts: Counts = (campaign.id, 0, 0, 0, 0)
            if !plan.stored.isEmpty {
                var chunk = CampaignChunk()
                for selection in plan.stored {
                    chunk.eligibleRows.append(selection.row)
                    if selection.variant == EligibleAccount.Variant.holdout.rawValue { counts.holdout += 1 } else { counts.treatment += 1 }
                    if isSigning, let payload = selection.payload { chunk.offerLines.append(payload) }
                }
                counts.eligible = chunk.eligibleRows.count
                counts.signed = campaign.isSigned ? chunk.offerLines.count : 0
                try emit(chunk)
            } else {
                let accounts = selector.select(campaign, timelines: model.timelines, asOf: calendar.asOf, coolingDown: plan.coolingDown)
                counts.eligible = accounts.count
                for start in stride(from: 0, to: accounts.count, by: chunkSize) {
                    let chunk = try sign(
                        accounts[start..<min(accounts.count, start + chunkSize)], campaign: campaign, asOf: calendar.asOfLabel,
                        counts: &counts)
                    try emit(chunk)
                }
            }
            perCampaign.append(counts)
        }
        return perCampaign
    }

    /// The rows, offers and selections of `accounts` (a chunk of one campaign's selection, in order), each
    /// account read in place.
    private func sign(_ accounts: ArraySlice<EligibleAccount>, campaign: Campaign, asOf: String, counts: inout Counts) throws
        -> CampaignChunk
    {
        var chunk = CampaignChunk()
        let signed: [OfferBatch.SignedOffer?] =
            if isSigning, campaign.isSigned, let signer {
                try OfferBatch.sign(accounts, campaign: campaign, signer: signer, now: now, nonce: nonce)
            } else {
                Array(repeating: nil, count: accounts.count)
            }
        // Apple win-back offers: a line per treatment account (whom to show the offer), never signed.
        let isUnsignedOffer = isSigning && campaign.offerKind == .winBack
        for (index, offer) in zip(accounts.indices, signed) {
            let row = CSVFormat.line(accounts[index].row)
            chunk.eligibleRows.append(row)
            let variant = accounts[index].variant
            var selection = StoredSelection(
                campaignId: campaign.id, accountKey: accounts[index].accountKey, asOf: asOf,
                originalTransactionId: accounts[index].originalTransactionId, variant: variant.rawValue, nonce: nil,
                timestampMilliseconds: nil, row: row, payload: nil, audience: campaign.audience.rawValue,
                offerIdentifier: accounts[index].offerIdentifier)
            if variant == .holdout { counts.holdout += 1 } else { counts.treatment += 1 }
            if let offer {
                selection.nonce = offer.nonce
                selection.timestampMilliseconds = offer.timestamp
                selection.payload = offer.line
                chunk.offerLines.append(offer.line)
                counts.signed += 1
            } else if isUnsignedOffer, variant == .treatment {
                let line = OfferLine.unsigned(accounts[index])
                selection.payload = line
                chunk.offerLines.append(line)
            }
            if isSigning { chunk.newSelections.append(selection) }
        }
        return chunk
    }
}
