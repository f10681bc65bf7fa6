/// The config's `delivery` block (docs/deliveries.md): where `winback deliver` sends the day's offers — a webhook,
/// Segment, Braze, any of them (at least one). Each sink is delivered on its own: one failing never blocks another.
public struct DeliverySettings: Sendable, Equatable {
    /// `delivery.webhook`, or `nil`.
    public var webhook: WebhookSettings?
    /// `delivery.segment`, or `nil`.
    public var segment: SegmentSettings?
    /// `delivery.braze`, or `nil`.
    public var braze: BrazeSettings?

    /// Settings with these sinks.
    public init(webhook: WebhookSettings? = nil, segment: SegmentSettings? = nil, braze: BrazeSettings? = nil) {
        self.webhook = webhook
        self.segment = segment
        self.braze = braze
    }

    /// Parses the `delivery` object; every error names its key.
    static func parse(_ object: ConfigObject) throws(ConfigError) -> DeliverySettings {
        try object.allowOnly(["webhook", "segment", "braze"])
        func sink<T>(_ name: String, _ parse: (ConfigObject) throws(ConfigError) -> T) throws(ConfigError) -> T? {
            guard let value = object.optional(name) else { return nil }
            return try parse(try ConfigObject(value, key: "delivery." + name))
        }
        let settings = DeliverySettings(
            webhook: try sink("webhook", WebhookSettings.parse), segment: try sink("segment", SegmentSettings.parse),
            braze: try sink("braze", BrazeSettings.parse))
        guard settings.webhook != nil || settings.segment != nil || settings.braze != nil else {
            throw ConfigError(key: "delivery", message: "expected at least one of webhook, segment, braze; found none")
        }
        return settings
    }
}
