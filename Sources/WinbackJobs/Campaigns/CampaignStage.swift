import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackCrypto
import WinbackIO

/// Eligibility and signing for every campaign of a run (docs/campaigns.md).
///
/// A day already in the ledger for a campaign is re-emitted from the ledger (same accounts, same offers);
/// otherwise accounts are selected (the ledger supplies the cooldown) and treatment offers signed, a chunk
/// of accounts at a time, each chunk handed to the caller (files, ledger) before the next is signed.
/// With `isSigning` false (reject rate over the threshold) nothing is signed and nothing is to be written.
struct CampaignStage {
    var campaigns: [Campaign]
    /// The one-time code pools of the offer-code campaigns, by campaign id (docs/campaigns.md).
    var codePools: [String: OfferCodePool] = [:]
    /// `app.appAppleId`, for offer codes' redemption URLs.
    var appAppleId: Int64?
    var signer: OfferSigner?
    var ledger: OfferLedger?
    var isSigning: Bool
    var now: @Sendable () -> Date
    var nonce: @Sendable () -> String
    /// Accounts signed per chunk: enough to keep every core busy, small enough that the signed lines
    /// in memory stay a few megabytes.
    var chunkSize = 4096

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
            var plan = CampaignPlan(campaign: campaign, stored: stored, coolingDown: coolingDown)
            if !stored.isEmpty, codePools[campaign.id] != nil, let ledger {
                plan.codesShort = try ledger.codesShort(campaign: campaign.id, asOf: asOf)
            }
            return plan
        }
    }

    /// Every one-time offer code the ledger has given; empty without code pools.
    func heldCodes() throws(JobError) -> Set<String> {
        codePools.isEmpty ? [] : try ledger?.heldCodes() ?? []
    }

    /// Selects and signs every planned campaign, handing each chunk to `emit` in campaign then account-key order.
    /// `heldCodes` is every one-time code the ledger has given (``heldCodes()``, read before the day's
    /// transaction); `shortfalls` records, per offer-code campaign selected anew, the treatment accounts
    /// left without a code.
    func run(
        _ plans: [CampaignPlan], candidates: (Campaign) -> [EligibleAccount], calendar: ReportCalendar, heldCodes: Set<String> = [],
        shortfalls: (String, Int) -> Void = { _, _ in }, emit: (CampaignChunk) throws -> Void
    ) throws -> [CampaignCounts] {
        let selector = CampaignSelector(holdoutBucket: HoldoutHash.bucket)
        var perCampaign: [CampaignCounts] = []
        // Codes given by any campaign on any day, this run's included as they are given.
        var held = heldCodes
        for plan in plans {
            let campaign = plan.campaign
            var counts = CampaignCounts(id: campaign.id)
            let pool = codePools[campaign.id]
            if !plan.stored.isEmpty {
                var chunk = CampaignChunk()
                for selection in plan.stored {
                    guard let row = selection.rowValues else {
                        throw JobError.io(
                            IOError(
                                path: ledger?.path ?? "ledger",
                                reason:
                                    "selection \(campaign.id)/\(selection.accountKey)/\(selection.asOf): its eligible_accounts row was kept "
                                    + "without readable values, so the day cannot be published again as it was"))
                    }
                    chunk.eligibleRows.append(row)
                    if selection.variant == EligibleAccount.Variant.holdout.rawValue { counts.holdout += 1 } else { counts.treatment += 1 }
                    if isSigning, let payload = selection.payload { chunk.offerLines.append(payload) }
                }
                counts.eligible = chunk.eligibleRows.count
                counts.signed = campaign.isSigned ? chunk.offerLines.count : 0
                if pool != nil { counts.codesShort = plan.codesShort }
                try emit(chunk)
            } else {
                var accounts = selector.choose(campaign, candidates: candidates(campaign), coolingDown: plan.coolingDown)
                var codes: [String?]? = nil
                if let pool {
                    let assignment = OfferCodeAssignment.assign(accounts, pool: pool, held: held, day: calendar.asOfLabel)
                    accounts.removeLast(accounts.count - assignment.kept)
                    codes = assignment.codes
                    held.formUnion(assignment.codes.compactMap { $0 })
                    counts.codesShort = assignment.codesShort
                    if isSigning { shortfalls(campaign.id, assignment.codesShort) }
                }
                counts.eligible = accounts.count
                for start in stride(from: 0, to: accounts.count, by: chunkSize) {
                    let range = start..<min(accounts.count, start + chunkSize)
                    let chunk = try sign(
                        accounts[range], codes: codes?[range], campaign: campaign, asOf: calendar.asOfLabel, counts: &counts)
                    try emit(chunk)
                }
            }
            perCampaign.append(counts)
        }
        // codesLeft is what the pool still has after the whole night: campaigns sharing a pool all see the
        // codes every one of them gave, and a re-run of the day says the same (the ledger then holds them all).
        for index in perCampaign.indices {
            guard let pool = codePools[perCampaign[index].id] else { continue }
            perCampaign[index].codesLeft = pool.codes.filter { !held.contains($0.code) && $0.isUsable(on: calendar.asOfLabel) }.count
        }
        return perCampaign
    }

    /// The rows, offers and selections of `accounts` (a chunk of one campaign's selection, in order), each
    /// account read in place.
    /// `codes` (offer-code campaigns with a pool) is index-aligned with `accounts`.
    private func sign(
        _ accounts: ArraySlice<EligibleAccount>, codes: ArraySlice<String?>?, campaign: Campaign, asOf: String, counts: inout CampaignCounts
    ) throws -> CampaignChunk {
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
            let row = accounts[index].row
            let values = EncodedRow(row)
            chunk.eligibleRows.append(values)
            let variant = accounts[index].variant
            var selection = StoredSelection(
                campaignId: campaign.id, accountKey: accounts[index].accountKey, asOf: asOf,
                originalTransactionId: accounts[index].originalTransactionId, variant: variant.rawValue, nonce: nil,
                timestampMilliseconds: nil, row: CSVFormat.line(row.cells), payload: nil, audience: campaign.audience.rawValue,
                offerIdentifier: accounts[index].offerIdentifier)
            selection.rowValues = values
            if variant == .holdout { counts.holdout += 1 } else { counts.treatment += 1 }
            if let offer {
                selection.nonce = offer.nonce
                selection.timestampMilliseconds = offer.timestamp
                selection.payload = offer.line
                chunk.offerLines.append(offer.line)
                counts.signed += 1
            } else if isSigning, campaign.offerKind == .offerCode, variant == .treatment {
                let code = codes?[index] ?? campaign.customCode ?? ""
                selection.offerCode = codes?[index]
                let line = OfferLine.offerCode(accounts[index], code: code, appAppleId: appAppleId ?? 0)
                selection.payload = line
                chunk.offerLines.append(line)
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
