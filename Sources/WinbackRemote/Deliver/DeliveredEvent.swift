import WinbackAnalytics
import WinbackAppStore

/// One line of a published day's `lifecycle_events.ndjson.gz` as `winback deliver` sends it (docs/deliveries.md:
/// Lifecycle events): the line with `"offer"` added — the day's offer line for the account, or `null`.
struct DeliveredEvent: SinkMessage {
    /// The line sent: the file's object with `offer` as its last member, without newline.
    var line: String
    /// `id`: stable among every day's events (Segment's `messageId`).
    var id: String
    /// `type`.
    var kind: LifecycleEvent.Kind
    /// `accountKey`.
    var accountKey: String
    /// `appAccountToken`, or `nil`.
    var appAccountToken: String?
    /// `occurredAt` (ISO 8601).
    var occurredAt: String

    /// The event of `line`, with `offer` (an `offers.ndjson.gz` line, or `nil`) added; `nil` when it is not an event line.
    init?(line: String, offer: (String) -> String?) {
        guard let object = try? JSONParser.parse(Array(line.utf8)), let id = object["id"]?.stringValue,
            let kind = object["type"]?.stringValue.flatMap(LifecycleEvent.Kind.init(rawValue:)),
            let accountKey = object["accountKey"]?.stringValue, let occurredAt = object["occurredAt"]?.stringValue, line.hasSuffix("}")
        else { return nil }
        self.line = String(line.dropLast()) + ",\"offer\":" + (offer(accountKey) ?? "null") + "}"
        self.id = id
        self.kind = kind
        self.accountKey = accountKey
        self.appAccountToken = object["appAccountToken"]?.stringValue
        self.occurredAt = occurredAt
    }

    func messageId(asOf: String) -> String { id }
    var segmentEvent: String { kind.segmentName }
    var brazeEvent: String { kind.brazeName }
    var timestamp: String? { occurredAt }
    var properties: JSONValue { Self.properties(ofLine: line) }
}
