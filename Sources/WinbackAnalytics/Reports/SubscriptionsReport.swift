/// `subscriptions.csv.gz`: one row per subscription, Family Sharing included (docs/analysts.md).
public enum SubscriptionsReport {
    /// The row of one subscription, in ``ReportSchema/subscriptions`` column order.
    public struct Row: TableRow {
        /// The subscription.
        public var timeline: SubscriptionTimeline

        /// The row of `timeline`.
        public init(_ timeline: SubscriptionTimeline) {
            self.timeline = timeline
        }

        /// Hands the row's values to `fields`, in the schema's column order.
        public func write(to fields: inout some RowFields) {
            SubscriptionsReport.write(timeline, to: &fields)
        }
    }

    private static func write(_ timeline: SubscriptionTimeline, to fields: inout some RowFields) {
        let latest = timeline.latest
        let renewal = timeline.renewal
        let lapse = timeline.finalLapse
        let lastOffer = timeline.lastOfferTransaction
        fields.text(timeline.originalTransactionId)
        fields.text(latest.appAccountToken.map(ByteSpelling.lowercased))
        fields.text(latest.appTransactionId)
        fields.text(latest.subscriptionGroupIdentifier)
        fields.text(latest.productId)
        fields.text(latest.storefront)
        fields.text(latest.inAppOwnershipType)
        fields.text(timeline.status.rawValue)
        fields.instant(timeline.transactions.first?.purchaseDate)
        fields.instant(latest.purchaseDate)
        fields.instant(latest.expiresDate)
        fields.instant(lapse?.at)
        fields.text(lapse?.reason.rawValue)
        fields.integer(renewal?.autoRenewStatus.map(Int64.init))
        fields.integer(renewal?.expirationIntent.map(Int64.init))
        fields.integer(renewal?.priceIncreaseStatus.map(Int64.init))
        fields.boolean(renewal?.isInBillingRetryPeriod)
        fields.instant(renewal?.gracePeriodExpiresDate)
        fields.integer(Int64(timeline.paidPeriods))
        fields.integer(timeline.paidDays)
        fields.integer(timeline.consecutivePaidDays)
        fields.integer(lastOffer?.offerType.map(Int64.init))
        fields.text(lastOffer?.offerIdentifier)
        fields.text(renewal?.eligibleWinBackOfferIds?.joined(separator: ";"))
        fields.text(renewal?.autoRenewProductId)
        fields.text(latest.billingPlanType)
        fields.integer(latest.commitmentBillingPeriodNumber.map(Int64.init))
        fields.integer(latest.commitmentTotalBillingPeriods.map(Int64.init))
        fields.instant(latest.commitmentExpiresDate)
        fields.text(renewal?.renewalBillingPlanType)
        fields.instant(timeline.autoRenewDisabledAt)
    }
}
