import Foundation
import WinbackCore
import WinbackCrypto

/// Eligibility and signing for every campaign of a run (SPEC §7, §8, §10).
///
/// A day already in the ledger for a campaign is re-emitted from the ledger (same accounts, same offers);
/// otherwise accounts are selected (the ledger supplies the cooldown) and treatment offers signed in
/// memory. The caller writes the new selections to the ledger in one transaction before publishing.
/// With `isSigning` false (reject rate over the threshold) nothing is signed and nothing is to be written.
struct CampaignStage {
    var campaigns: [Campaign]
    var signer: OfferSigner?
    var ledger: OfferLedger?
    var isSigning: Bool
    var now: @Sendable () -> Date
    var nonce: @Sendable () -> String

    func run(model: SubscriptionModel, calendar: ReportCalendar) throws -> CampaignOutcome {
        var outcome = CampaignOutcome()
        let asOf = calendar.asOfLabel
        let selector = CampaignSelector(holdoutBucket: HoldoutHash.bucket)
        let dayNumber = InstantFormat.days(year: Int64(calendar.year), month: Int64(calendar.month), day: Int64(calendar.day))
        for campaign in campaigns.sorted(by: { $0.id.unicodeScalars.lexicographicallyPrecedes($1.id.unicodeScalars) }) {
            let stored = try ledger?.selections(campaign: campaign.id, asOf: asOf) ?? []
            var rows: [String] = []
            var offers: [String] = []
            var treatment = 0
            var holdout = 0
            if !stored.isEmpty {
                for selection in stored {
                    rows.append(selection.row)
                    if selection.variant == EligibleAccount.Variant.holdout.rawValue { holdout += 1 } else { treatment += 1 }
                    if isSigning, let payload = selection.payload { offers.append(payload) }
                }
            } else {
                var coolingDown: Set<String> = []
                if campaign.cooldownDays > 0, let ledger {
                    coolingDown = try ledger.accounts(campaign: campaign.id, from: InstantFormat.date(days: dayNumber - campaign.cooldownDays), until: asOf)
                }
                let accounts = selector.select(campaign, timelines: model.timelines, asOf: calendar.asOf, coolingDown: coolingDown)
                let signed = try sign(accounts, campaign: campaign)
                for (index, account) in accounts.enumerated() {
                    let row = CSVFormat.line(account.row)
                    rows.append(row)
                    var selection = StoredSelection(
                        campaignId: campaign.id, accountKey: account.accountKey, asOf: asOf, originalTransactionId: account.originalTransactionId,
                        variant: account.variant.rawValue, nonce: nil, timestampMilliseconds: nil, row: row, payload: nil)
                    if account.variant == .holdout { holdout += 1 } else { treatment += 1 }
                    if let offer = signed[index] {
                        selection.nonce = offer.nonce
                        selection.timestampMilliseconds = offer.timestamp
                        selection.payload = offer.line
                        offers.append(offer.line)
                    }
                    if isSigning { outcome.newSelections.append(selection) }
                }
            }
            outcome.eligibleRows += rows
            outcome.offerLines += offers
            outcome.perCampaign.append((campaign.id, rows.count, treatment, holdout, offers.count))
        }
        return outcome
    }

    /// Signs the treatment accounts' offers (see ``OfferBatch``); `nil` entries when not signing.
    private func sign(_ accounts: [EligibleAccount], campaign: Campaign) throws -> [OfferBatch.SignedOffer?] {
        guard isSigning, campaign.audience.isSigned, let signer else { return Array(repeating: nil, count: accounts.count) }
        return try OfferBatch.sign(accounts, campaign: campaign, signer: signer, now: now, nonce: nonce)
    }
}
