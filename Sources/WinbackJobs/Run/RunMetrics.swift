import CoreMetrics
import WinbackAnalytics
import WinbackCore

/// What `winback run` and `winback merge` count in swift-metrics for `--metrics-file` (docs/operations.md).
enum RunMetrics {
    /// `winback_records_total{outcome}` (read, accepted, rejected, duplicate), `winback_subscriptions`, and per
    /// campaign `winback_offers_total{campaign,variant}` (treatment, holdout) and `winback_offers_signed_total{campaign}`.
    static func emit(counts: IngestCounts, subscriptions: Int, campaigns: [CampaignCounts]) {
        for (outcome, count) in [
            ("read", counts.read), ("accepted", counts.accepted), ("rejected", counts.rejected), ("duplicate", counts.duplicates),
        ] {
            Counter(label: "winback_records_total", dimensions: [("outcome", outcome)]).increment(by: count)
        }
        Gauge(label: "winback_subscriptions").record(subscriptions)
        for campaign in campaigns {
            Counter(label: "winback_offers_total", dimensions: [("campaign", campaign.id), ("variant", "treatment")])
                .increment(by: campaign.treatment)
            Counter(label: "winback_offers_total", dimensions: [("campaign", campaign.id), ("variant", "holdout")])
                .increment(by: campaign.holdout)
            Counter(label: "winback_offers_signed_total", dimensions: [("campaign", campaign.id)]).increment(by: campaign.signed)
        }
    }
}
