import WinbackAnalytics
import WinbackAppStore

/// Picks the accounts a campaign reaches on day `D` (docs/campaigns.md). Pure: the holdout hash and the
/// ledger's cooldown set are parameters.
///
/// Steps: audience rules on each non-family subscription (ownership `PURCHASED`, storefront and product
/// filters on the latest transaction `X`) → one subscription per account (most paid days, then smallest
/// `originalTransactionId`) → cooldown exclusion → order by paid days descending, then account key →
/// first `maxOffers` → holdout split: the first 8 bytes of SHA-256(`"<campaign id>:<account key>"`) as a
/// big-endian integer, mod 10 000, below `holdoutPercent × 100` is `holdout`.
///
/// Example: a `win_back` campaign with `lapseReasons: ["voluntary"]`, `minDaysSinceLapse: 14` reaches a
/// subscriber whose monthly plan lapsed voluntarily 20 days before `T`, not one who lapsed 10 days before.
public struct CampaignSelector: Sendable {
    /// `holdoutBucket("<campaign id>:<account key>")` = first 8 bytes of SHA-256, big-endian.
    public var holdoutBucket: @Sendable (String) -> UInt64

    /// A selector whose holdout split uses `holdoutBucket` (SHA-256 of `"<campaign id>:<account key>"`, first 8 bytes).
    public init(holdoutBucket: @escaping @Sendable (String) -> UInt64) {
        self.holdoutBucket = holdoutBucket
    }

    /// The selected accounts, in `eligible_accounts` order (account key). `coolingDown` holds account keys
    /// with a ledger entry for this campaign in the cooldown window.
    public func select(_ campaign: Campaign, timelines: [SubscriptionTimeline], asOf: Int64, coolingDown: Set<String>) -> [EligibleAccount]
    {
        choose(campaign, candidates: candidates(campaign, timelines: timelines, asOf: asOf), coolingDown: coolingDown)
    }

    /// The campaign's candidates among `timelines`: a `treatment` account for every non-family subscription that
    /// passes the audience rules, in timeline order. A shard hands its candidates to the merge, which chooses
    /// over every shard's (docs/sharding.md): the choice depends only on the candidates, not on their order.
    public func candidates(_ campaign: Campaign, timelines: [SubscriptionTimeline], asOf: Int64) -> [EligibleAccount] {
        var candidates: [EligibleAccount] = []
        // By index, status first: most subscriptions fail it, and reading two fields copies nothing.
        for index in timelines.indices where campaign.audience.admits(timelines[index].status) && !timelines[index].isFamilyShared {
            guard let qualification = qualification(campaign, timelines[index], asOf: asOf) else { continue }
            candidates.append(
                account(
                    campaign, timelines[index], accountKey: timelines[index].accountKey, paidDays: timelines[index].paidDays,
                    qualification))
        }
        return candidates
    }

    /// The selected accounts among `candidates` (``candidates(_:timelines:asOf:)``, of one or several shards), in
    /// `eligible_accounts` order: one subscription per account (most paid days, then smallest
    /// `originalTransactionId`), cooldown, `maxOffers`, holdout split.
    public func choose(_ campaign: Campaign, candidates: consuming [EligibleAccount], coolingDown: Set<String>) -> [EligibleAccount] {
        var passed = candidates
        // One subscription per account: in account-key order, the best of each run of equal keys. Sorting the
        // candidates is needed for the output order anyway, and costs less than a dictionary by key.
        passed.sort { CodePointOrder.less($0.accountKey, $1.accountKey) }
        var ordered: [EligibleAccount] = []
        ordered.reserveCapacity(passed.count)
        for candidate in passed {
            if let last = ordered.last, CodePointOrder.compare(last.accountKey, candidate.accountKey) == 0 {
                if isBetter(candidate, than: last) { ordered[ordered.count - 1] = candidate }
                continue
            }
            ordered.append(candidate)
        }
        passed = []
        if !coolingDown.isEmpty { ordered.removeAll { coolingDown.contains($0.accountKey) } }
        if let cap = campaign.maxOffers, ordered.count > cap {
            // The most paid days (then account key) make the cut; they go back to account-key order.
            ordered.sort { lhs, rhs in
                lhs.paidDays != rhs.paidDays ? lhs.paidDays > rhs.paidDays : CodePointOrder.less(lhs.accountKey, rhs.accountKey)
            }
            ordered.removeLast(ordered.count - cap)
            ordered.sort { CodePointOrder.less($0.accountKey, $1.accountKey) }
        }
        for index in ordered.indices where isHoldout(campaign, accountKey: ordered[index].accountKey) { ordered[index].variant = .holdout }
        return ordered
    }

    /// Of two subscriptions of one account, `candidate` is chosen over `existing`: more paid days, then the
    /// smaller `originalTransactionId`.
    private func isBetter(_ candidate: EligibleAccount, than existing: EligibleAccount) -> Bool {
        candidate.paidDays > existing.paidDays
            || (candidate.paidDays == existing.paidDays
                && IdentifierOrder.less(candidate.originalTransactionId, existing.originalTransactionId))
    }

    /// What the rules measured on the way: the `eligible_accounts` columns beyond the subscription's own.
    struct Qualification {
        var daysSinceLapse: Int64?
        var daysToExpiry: Int64?
        var lapseReason: LapseReason?
    }

    /// Whether the account is in the campaign's control group.
    public func isHoldout(_ campaign: Campaign, accountKey: String) -> Bool {
        Self.isHoldout(bucket: holdoutBucket("\(campaign.id):\(accountKey)"), holdoutPercent: campaign.holdoutPercent)
    }

    /// The holdout rule: `bucket mod 10 000 < holdoutPercent × 100`.
    public static func isHoldout(bucket: UInt64, holdoutPercent: Double) -> Bool {
        Double(bucket % 10_000) < holdoutPercent * 100
    }

    /// Whether `timeline` passes `campaign`'s rules, and what they measured; its status is one the audience
    /// admits (``select(_:timelines:asOf:coolingDown:)`` checks that first).
    func qualification(_ campaign: Campaign, _ timeline: SubscriptionTimeline, asOf: Int64) -> Qualification? {
        // `X` read in place: a copy of the transaction (`timeline.latest`) retained and released its three
        // objects for every subscription each campaign looks at.
        let latest = timeline.latestIndex
        let rules = campaign.rules
        guard timeline.transactions[latest].inAppOwnershipType == InAppOwnershipType.purchased.rawValue else { return nil }
        if let storefronts = rules.storefronts, !storefronts.contains(timeline.transactions[latest].storefront ?? "") { return nil }
        if let products = rules.productIds, !products.contains(timeline.transactions[latest].productId) { return nil }
        let renewal = timeline.renewal
        var daysSinceLapse: Int64? = nil
        var daysToExpiry: Int64? = nil
        var lapseReason: LapseReason? = nil
        switch campaign.audience {
        case .winBack:
            guard let lapse = timeline.finalLapse, rules.lapseReasons.contains(lapse.reason) else { return nil }
            let days = InstantFormat.floorDivide(asOf - lapse.at, InstantFormat.day)
            guard days >= rules.minDaysSinceLapse, days <= rules.maxDaysSinceLapse else { return nil }
            guard timeline.consecutivePaidDays >= rules.minPaidDays else { return nil }
            if campaign.offerKind == .winBack {
                // Apple decides: the offer must be in R's eligibleWinBackOfferIds (any, for a null offerIdentifier).
                guard let eligible = renewal?.eligibleWinBackOfferIds, !eligible.isEmpty else { return nil }
                if let offer = campaign.offerIdentifier, !eligible.contains(offer) { return nil }
                if let preferred = campaign.offerIdentifiers, !eligible.contains(where: preferred.contains) { return nil }
            }
            daysSinceLapse = days
            lapseReason = lapse.reason
        case .retention, .priceIncrease:
            guard let renewal else { return nil }
            // A 12-month commitment renews (or not) when the commitment ends, not at X's expiry (docs/notifications-and-commitments.md).
            let autoRenewStatus = renewal.effectiveAutoRenewStatus(latest: timeline.transactions[latest])
            let renewsAt = timeline.transactions[latest].commitmentExpiresDate ?? timeline.transactions[latest].expiresDate
            if campaign.audience == .retention {
                guard let covering = timeline.covering(at: asOf), timeline.transactions[covering].isPaid, autoRenewStatus == 0
                else { return nil }
                if let maxDays = rules.maxDaysSinceAutoRenewDisabled {
                    guard let disabledAt = timeline.autoRenewDisabledAt,
                        InstantFormat.floorDivide(asOf - disabledAt, InstantFormat.day) <= maxDays
                    else { return nil }
                }
            } else {
                guard renewal.priceIncreaseStatus == 0, autoRenewStatus == 1 else { return nil }
            }
            let days = InstantFormat.floorDivide(renewsAt - asOf, InstantFormat.day)
            guard days >= 0, days <= rules.maxDaysToExpiry ?? -1 else { return nil }
            daysToExpiry = days
        case .billingIssue:
            if let lapse = timeline.finalLapse {
                daysSinceLapse = InstantFormat.floorDivide(asOf - lapse.at, InstantFormat.day)
                lapseReason = lapse.reason
            }
        }
        return Qualification(daysSinceLapse: daysSinceLapse, daysToExpiry: daysToExpiry, lapseReason: lapseReason)
    }

    /// The `treatment` account of a qualified subscription; `accountKey` is ``SubscriptionTimeline/accountKey`` (the
    /// lower-case token when there is one).
    func account(
        _ campaign: Campaign, _ timeline: SubscriptionTimeline, accountKey: String, paidDays: Int64, _ qualification: Qualification
    ) -> EligibleAccount {
        let latest = timeline.latest
        let eligibleWinBack = timeline.renewal?.eligibleWinBackOfferIds
        // A win-back offer without an identifier is Apple's first eligible one (of the campaign's list, when it has one).
        var offerIdentifier = campaign.offerIdentifier
        if campaign.offerKind == .winBack, offerIdentifier == nil {
            if let preferred = campaign.offerIdentifiers {
                offerIdentifier = eligibleWinBack?.first(where: preferred.contains)
            } else {
                offerIdentifier = eligibleWinBack?.first
            }
        }
        var account = EligibleAccount(
            campaignId: campaign.id, accountKey: accountKey, originalTransactionId: timeline.originalTransactionId,
            variant: .treatment, audience: campaign.audience,
            productId: campaign.offerProductId ?? timeline.renewal?.autoRenewProductId ?? latest.productId,
            offerIdentifier: offerIdentifier,
            paidDays: paidDays, daysSinceLapse: qualification.daysSinceLapse, daysToExpiry: qualification.daysToExpiry,
            lapseReason: qualification.lapseReason, transactionId: latest.transactionId,
            appAccountToken: latest.appAccountToken == nil ? nil : accountKey)
        account.offerKind = campaign.offerKind
        account.eligibleWinBackOfferIds = eligibleWinBack
        return account
    }
}
