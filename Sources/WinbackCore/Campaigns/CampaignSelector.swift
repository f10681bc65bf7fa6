/// Picks the accounts a campaign reaches on day `D` (SPEC §7, §10). Pure: the holdout hash and the
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

    public init(holdoutBucket: @escaping @Sendable (String) -> UInt64) {
        self.holdoutBucket = holdoutBucket
    }

    /// The selected accounts, in `eligible_accounts` order (account key). `coolingDown` holds account keys
    /// with a ledger entry for this campaign in the cooldown window.
    public func select(_ campaign: Campaign, timelines: [SubscriptionTimeline], asOf: Int64, coolingDown: Set<String>) -> [EligibleAccount] {
        var best: [String: EligibleAccount] = [:]
        // By index, status first: most subscriptions fail it, and reading two fields copies nothing.
        for index in timelines.indices where campaign.audience.admits(timelines[index].status) && !timelines[index].isFamilyShared {
            guard let candidate = candidate(campaign, timelines[index], asOf: asOf) else { continue }
            if let existing = best[candidate.accountKey] {
                let isBetter = candidate.paidDays > existing.paidDays
                    || (candidate.paidDays == existing.paidDays && IdentifierOrder.less(candidate.originalTransactionId, existing.originalTransactionId))
                if !isBetter { continue }
            }
            best[candidate.accountKey] = candidate
        }
        var ordered = best.values.filter { !coolingDown.contains($0.accountKey) }.sorted { lhs, rhs in
            lhs.paidDays != rhs.paidDays ? lhs.paidDays > rhs.paidDays : lhs.accountKey.unicodeScalars.lexicographicallyPrecedes(rhs.accountKey.unicodeScalars)
        }
        if let cap = campaign.maxOffers, ordered.count > cap { ordered.removeLast(ordered.count - cap) }
        for index in ordered.indices where isHoldout(campaign, accountKey: ordered[index].accountKey) {
            ordered[index].variant = .holdout
        }
        return ordered.sorted { $0.accountKey.unicodeScalars.lexicographicallyPrecedes($1.accountKey.unicodeScalars) }
    }

    /// Whether the account is in the campaign's control group.
    public func isHoldout(_ campaign: Campaign, accountKey: String) -> Bool {
        Double(holdoutBucket("\(campaign.id):\(accountKey)") % 10_000) < campaign.holdoutPercent * 100
    }

    /// The account key: `X.appAccountToken` lower-cased, else the `originalTransactionId`.
    public static func accountKey(_ timeline: SubscriptionTimeline) -> String {
        timeline.latest.appAccountToken?.lowercased() ?? timeline.originalTransactionId
    }

    /// The account `timeline` gives `campaign`, if it passes the audience's rules; its status is one the
    /// audience admits (``select(_:timelines:asOf:coolingDown:)`` checks that first).
    func candidate(_ campaign: Campaign, _ timeline: SubscriptionTimeline, asOf: Int64) -> EligibleAccount? {
        let latest = timeline.latest
        let rules = campaign.rules
        guard latest.ownership == InAppOwnershipType.purchased.rawValue else { return nil }
        if let storefronts = rules.storefronts, !storefronts.contains(latest.storefront ?? "") { return nil }
        if let products = rules.productIds, !products.contains(latest.productId) { return nil }
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
            if rules.requireAppleEligibility {
                guard let offer = campaign.offerIdentifier, renewal?.eligibleWinBackOfferIds?.contains(offer) == true else { return nil }
            }
            daysSinceLapse = days
            lapseReason = lapse.reason
        case .retention, .priceIncrease:
            guard let renewal else { return nil }
            if campaign.audience == .retention {
                guard let covering = timeline.covering(at: asOf), timeline.transactions[covering].isPaid, renewal.autoRenewStatus == 0 else { return nil }
            } else {
                guard renewal.priceIncreaseStatus == 0, renewal.autoRenewStatus == 1 else { return nil }
            }
            let days = InstantFormat.floorDivide(latest.expiresDate - asOf, InstantFormat.day)
            guard days >= 0, days <= rules.maxDaysToExpiry ?? -1 else { return nil }
            daysToExpiry = days
        case .billingIssue:
            if let lapse = timeline.finalLapse {
                daysSinceLapse = InstantFormat.floorDivide(asOf - lapse.at, InstantFormat.day)
                lapseReason = lapse.reason
            }
        }
        return EligibleAccount(
            campaignId: campaign.id, accountKey: Self.accountKey(timeline), originalTransactionId: timeline.originalTransactionId,
            variant: .treatment, audience: campaign.audience,
            productId: campaign.offerProductId ?? renewal?.autoRenewProductId ?? latest.productId, offerIdentifier: campaign.offerIdentifier,
            paidDays: timeline.paidDays, daysSinceLapse: daysSinceLapse, daysToExpiry: daysToExpiry, lapseReason: lapseReason,
            transactionId: latest.transactionId, appAccountToken: latest.appAccountToken?.lowercased())
    }
}
