import WinbackAnalytics
import WinbackAppStore

/// The config's `delivery` block (docs/deliveries.md): where `winback deliver` sends the day's offers and lifecycle
/// events (`events`) — a webhook, Segment, Braze, any of them (at least one). Each sink is delivered on its own: one failing never blocks another.
public struct DeliverySettings: Sendable, Equatable {
    /// `delivery.webhook`, or `nil`.
    public var webhook: WebhookSettings?
    /// `delivery.segment`, or `nil`.
    public var segment: SegmentSettings?
    /// `delivery.braze`, or `nil`.
    public var braze: BrazeSettings?
    /// `"offers"` in `delivery.events` (the default): the day's offers are sent.
    public var sendsOffers = true
    /// The lifecycle events of `delivery.events` to send, in the order listed (none by default).
    public var lifecycleKinds: [LifecycleEvent.Kind] = []

    /// Settings with these sinks.
    public init(webhook: WebhookSettings? = nil, segment: SegmentSettings? = nil, braze: BrazeSettings? = nil) {
        self.webhook = webhook
        self.segment = segment
        self.braze = braze
    }

    /// Parses the `delivery` object; every error names its key.
    static func parse(_ object: ConfigObject) throws(ConfigError) -> DeliverySettings {
        try object.allowOnly(["webhook", "segment", "braze", "events"])
        func sink<T>(_ name: String, _ parse: (ConfigObject) throws(ConfigError) -> T) throws(ConfigError) -> T? {
            guard let value = object.optional(name) else { return nil }
            return try parse(try ConfigObject(value, key: "delivery." + name))
        }
        var settings = DeliverySettings(
            webhook: try sink("webhook", WebhookSettings.parse), segment: try sink("segment", SegmentSettings.parse),
            braze: try sink("braze", BrazeSettings.parse))
        guard settings.webhook != nil || settings.segment != nil || settings.braze != nil else {
            throw ConfigError(key: "delivery", message: "expected at least one of webhook, segment, braze; found none")
        }
        if object.optional("events") != nil {
            (settings.sendsOffers, settings.lifecycleKinds) = try events(try object.stringArray("events"))
        }
        return settings
    }

    /// `delivery.events`: `"offers"` and lifecycle event types, each at most once, at least one.
    private static func events(_ names: [String]) throws(ConfigError) -> (sendsOffers: Bool, kinds: [LifecycleEvent.Kind]) {
        guard !names.isEmpty else {
            throw ConfigError(key: "delivery.events", message: "expected \"offers\" or lifecycle event types, found an empty list")
        }
        var sendsOffers = false
        var kinds: [LifecycleEvent.Kind] = []
        for (index, name) in names.enumerated() {
            guard names.firstIndex(of: name) == index else {
                throw ConfigError(key: "delivery.events[\(index)]", message: "'\(name)' is listed twice")
            }
            if name == "offers" {
                sendsOffers = true
            } else if let kind = LifecycleEvent.Kind(rawValue: name) {
                kinds.append(kind)
            } else {
                let allowed = (["offers"] + LifecycleEvent.Kind.allCases.map(\.rawValue)).joined(separator: ", ")
                throw ConfigError(key: "delivery.events[\(index)]", message: "expected one of \(allowed), found '\(name)'")
            }
        }
        return (sendsOffers, kinds)
    }
}
