import WinbackAppStore

/// One message Segment and Braze receive (docs/deliveries.md): an offer (``DeliveredOffer``) or a lifecycle event
/// (``DeliveredEvent``), with what those APIs address it by.
protocol SinkMessage: Sendable {
    /// Segment's `messageId` on day `asOf`: stable, so a repeat is dropped.
    func messageId(asOf: String) -> String
    /// `accountKey` (Segment's `anonymousId` when there is no token).
    var accountKey: String { get }
    /// The lower-case `appAccountToken` (Segment's `userId`, Braze's `external_id`), or `nil`.
    var appAccountToken: String? { get }
    /// Segment's event name (`Winback Offer Selected`, `Subscription Expired`, …).
    var segmentEvent: String { get }
    /// Braze's event name (`winback_offer_selected`, `subscription_expired`, …).
    var brazeEvent: String { get }
    /// When it happened (ISO 8601), if known.
    var timestamp: String? { get }
    /// The event properties: the line's members whose value is not null.
    var properties: JSONValue { get }
}

extension SinkMessage {
    /// The non-null members of the JSON object `line`.
    static func properties(ofLine line: String) -> JSONValue {
        let members = (try? JSONParser.parse(Array(line.utf8)))?.objectMembers ?? []
        return .object(members.filter { $0.value != .null })
    }
}
