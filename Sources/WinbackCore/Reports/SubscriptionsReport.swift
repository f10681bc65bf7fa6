/// `subscriptions.csv.gz`: one row per subscription, Family Sharing included (SPEC §6, §10).
public enum SubscriptionsReport {
    /// The row of one subscription, in ``ReportSchema/subscriptions`` column order.
    public static func row(_ timeline: SubscriptionTimeline) -> [String?] {
        let latest = timeline.latest
        let renewal = timeline.renewal
        let lapse = timeline.finalLapse
        let lastOffer = timeline.lastOfferTransaction
        func instant(_ value: Int64?) -> String? { value.map { InstantFormat.iso8601(milliseconds: $0) } }
        return [
            timeline.originalTransactionId, latest.appAccountToken?.lowercased(), latest.appTransactionId, latest.subscriptionGroupId,
            latest.productId, latest.storefront, latest.ownership, timeline.status.rawValue,
            instant(timeline.transactions.first?.purchaseDate), instant(latest.purchaseDate), instant(latest.expiresDate),
            instant(lapse?.at), lapse?.reason.rawValue, renewal?.autoRenewStatus.map(String.init),
            renewal?.expirationIntent.map(String.init), renewal?.priceIncreaseStatus.map(String.init),
            renewal?.isInBillingRetryPeriod.map { $0 ? "true" : "false" }, instant(renewal?.gracePeriodExpiresDate),
            String(timeline.paidPeriods), String(timeline.paidDays), String(timeline.consecutivePaidDays),
            lastOffer?.offerType.map(String.init), lastOffer?.offerIdentifier, renewal?.eligibleWinBackOfferIds?.joined(separator: ";"),
            renewal?.autoRenewProductId,
        ]
    }
}
