import WinbackAnalytics

/// `retention_decisions.csv.gz` (docs/retention-messaging.md): for each Retention Messaging campaign, every account its ledger
/// selections name within its cooldown — as-of in `(D − max(cooldownDays, 1) days, D]` — and what
/// `winback serve` answers for it. Holdout rows leave every column after `variant` empty.
public enum RetentionDecisions {
    /// One ledger selection of a Retention Messaging campaign.
    public struct Selection: Sendable {
        /// The subscription it was selected through.
        public var originalTransactionId: String
        /// The account key.
        public var accountKey: String
        /// `treatment` or `holdout`.
        public var variant: String
        /// The offer it was selected for (a promotional offer's id).
        public var offerIdentifier: String?

        /// A selection from its parts.
        public init(originalTransactionId: String, accountKey: String, variant: String, offerIdentifier: String?) {
            self.originalTransactionId = originalTransactionId
            self.accountKey = accountKey
            self.variant = variant
            self.offerIdentifier = offerIdentifier
        }
    }

    /// The first day of `campaign`'s window ends after: `D − max(cooldownDays, 1)` days, as a day number.
    public static func windowStart(_ campaign: Campaign, asOfDay: Int64) -> Int64 {
        asOfDay - max(campaign.cooldownDays, 1)
    }

    /// The `kind` column of a treatment row.
    public static func kind(_ campaign: Campaign) -> String {
        switch campaign.offerKind {
        case .promotional: "promotional_offer"
        case .alternateProduct: "alternate_product"
        default: "message"
        }
    }

    /// A row: one account a Retention Messaging campaign selected, and what `winback serve` answers for it.
    public struct Row: TableRow, Equatable {
        /// `original_transaction_id`: the subscription it was selected through.
        public var originalTransactionId: String
        /// `campaign_id`.
        public var campaignId: String
        /// `account_key`.
        public var accountKey: String
        /// `variant`: `treatment` or `holdout`.
        public var variant: String
        /// `kind` (``RetentionDecisions/kind(_:)``); `nil` for a holdout row, as every column after it.
        public var kind: String?
        /// `message_identifier`.
        public var messageIdentifier: String?
        /// `product_id`: the offer's product.
        public var productId: String?
        /// `offer_identifier`: a promotional offer's id.
        public var offerIdentifier: String?
        /// `billing_plan_type`: an alternate product's plan.
        public var billingPlanType: String?

        /// A treatment or holdout row with nothing decided yet (the columns after `variant` empty).
        public init(originalTransactionId: String, campaignId: String, accountKey: String, variant: String) {
            self.originalTransactionId = originalTransactionId
            self.campaignId = campaignId
            self.accountKey = accountKey
            self.variant = variant
        }

        /// The CSV cells, in the schema's column order.
        public var cells: [String?] {
            [originalTransactionId, campaignId, accountKey, variant, kind, messageIdentifier, productId, offerIdentifier, billingPlanType]
        }
    }

    /// The rows of `selections` by campaign, in key order (`original_transaction_id`, then `campaign_id`).
    public static func rows(_ selections: [(campaign: Campaign, selections: [Selection])]) -> [Row] {
        var rows: [Row] = []
        for (campaign, chosen) in selections {
            for selection in chosen {
                var row = Row(
                    originalTransactionId: selection.originalTransactionId, campaignId: campaign.id, accountKey: selection.accountKey,
                    variant: selection.variant)
                if selection.variant == EligibleAccount.Variant.treatment.rawValue {
                    row.kind = kind(campaign)
                    row.messageIdentifier = campaign.messageIdentifier
                    row.productId = campaign.offerProductId
                    row.offerIdentifier = campaign.offerKind == .promotional ? selection.offerIdentifier ?? campaign.offerIdentifier : nil
                    row.billingPlanType = campaign.offerKind == .alternateProduct ? campaign.billingPlanType : nil
                }
                rows.append(row)
            }
        }
        return rows.sorted { lhs, rhs in
            let first = CodePointOrder.compare(lhs.originalTransactionId, rhs.originalTransactionId)
            return first != 0 ? first < 0 : CodePointOrder.less(lhs.campaignId, rhs.campaignId)
        }
    }
}
