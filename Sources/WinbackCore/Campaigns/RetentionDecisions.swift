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
        /// `account_key`.
        public var accountKey: String
        /// The other columns: campaign, variant and the answer (empty on a holdout row).
        public var decision: RetentionDecision

        /// Hands the row's values to `fields`, in the schema's column order.
        public func write(to fields: inout some RowFields) {
            for text in [
                originalTransactionId, decision.campaignId, accountKey, decision.variant, decision.kind, decision.messageIdentifier,
                decision.productId, decision.offerIdentifier, decision.billingPlanType,
            ] {
                fields.text(text)
            }
        }
    }

    /// The rows of `selections` by campaign, in key order (`original_transaction_id`, then `campaign_id`).
    public static func rows(_ selections: [(campaign: Campaign, selections: [Selection])]) -> [Row] {
        var rows: [Row] = []
        for (campaign, chosen) in selections {
            for selection in chosen {
                let isTreatment = selection.variant == EligibleAccount.Variant.treatment.rawValue
                let decision = RetentionDecision(
                    campaignId: campaign.id, variant: selection.variant, kind: isTreatment ? kind(campaign) : nil,
                    messageIdentifier: isTreatment ? campaign.messageIdentifier : nil,
                    productId: isTreatment ? campaign.offerProductId : nil,
                    offerIdentifier: isTreatment && campaign.offerKind == .promotional
                        ? selection.offerIdentifier ?? campaign.offerIdentifier : nil,
                    billingPlanType: isTreatment && campaign.offerKind == .alternateProduct ? campaign.billingPlanType : nil)
                let row = Row(originalTransactionId: selection.originalTransactionId, accountKey: selection.accountKey, decision: decision)
                rows.append(row)
            }
        }
        return rows.sorted { lhs, rhs in
            let first = CodePointOrder.compare(lhs.originalTransactionId, rhs.originalTransactionId)
            return first != 0 ? first < 0 : CodePointOrder.less(lhs.decision.campaignId, rhs.decision.campaignId)
        }
    }
}
