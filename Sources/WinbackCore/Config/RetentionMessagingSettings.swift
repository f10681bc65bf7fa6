import WinbackAppStore

/// The config's `retentionMessaging` block (docs/retention-messaging.md): what `winback serve` answers beyond the campaigns.
public struct RetentionMessagingSettings: Sendable, Equatable {
    /// `retentionMessaging.defaultMessageIdentifier`: the UUID of an approved retention message, the answer
    /// for a subscription in no campaign (or in a holdout); `nil`: such requests get `{}` and Apple falls back
    /// to App Store Connect's default.
    public var defaultMessageIdentifier: String?

    /// Settings with `defaultMessageIdentifier`.
    public init(defaultMessageIdentifier: String?) {
        self.defaultMessageIdentifier = defaultMessageIdentifier
    }

    /// Parses the `retentionMessaging` object; every error names its key.
    static func parse(_ object: ConfigObject) throws(ConfigError) -> RetentionMessagingSettings {
        try object.allowOnly(["defaultMessageIdentifier"])
        let message = try object.optionalString("defaultMessageIdentifier")
        if let message, !CampaignParser.isUUID(message) {
            throw ConfigError(
                key: "retentionMessaging.defaultMessageIdentifier",
                message: "expected the UUID of an approved retention message, found '\(message)'")
        }
        return RetentionMessagingSettings(defaultMessageIdentifier: message)
    }
}
