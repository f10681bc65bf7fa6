/// How a campaign reaches its accounts (docs/retention-messaging.md).
public enum CampaignChannel: String, Sendable, CaseIterable {
    /// Offers in `offers.ndjson.gz` (the default).
    case offers
    /// Retention Messaging: the App Store asks at the moment of cancelling, and `winback serve` answers from
    /// the night's `retention_decisions.csv.gz`; nothing in `offers.ndjson.gz`.
    case retentionMessaging = "retention_messaging"
}
