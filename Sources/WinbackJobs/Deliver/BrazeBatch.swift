import WinbackCore

/// One request to Braze's `/users/track` (docs/deliveries.md): `{"events": [...]}`, at most 75 events (Braze's
/// documented limit). Each offer is the custom event `winback_offer_selected` of the user whose `external_id` is its
/// `appAccountToken`; an offer without one cannot be addressed in Braze and is skipped (and counted).
struct BrazeBatch: Sendable {
    /// Braze's limit on events per request.
    static let maximumEvents = 75
    /// The event name of an offer.
    static let offerEvent = "winback_offer_selected"

    /// The batch's number among the day's, from 0.
    var number: Int
    /// The events, rendered.
    var events: [String]

    /// `{"events":[…]}`.
    var body: [UInt8] { Array(("{\"events\":[" + events.joined(separator: ",") + "]}").utf8) }

    /// The event of `offer`, whose `appAccountToken` is `token`; its `time` (required by Braze) is when the offer
    /// was signed, else the start of the as-of day (UTC).
    static func event(_ offer: DeliveredOffer, token: String, asOf: String) -> String {
        JSONText.render(
            JSONText.object([
                ("external_id", .string(token)), ("name", .string(offerEvent)), ("time", .string(offer.issuedAt ?? asOf + "T00:00:00Z")),
                ("properties", offer.properties),
            ]))
    }

    /// The day's offers with an `appAccountToken` in batches of `maximumEvents`, in file order, and the number
    /// of offers skipped for having none.
    static func batches(_ offers: [DeliveredOffer], asOf: String, maximumEvents: Int = maximumEvents) -> (
        batches: [BrazeBatch], skipped: Int
    ) {
        let events = offers.compactMap { offer in offer.appAccountToken.map { event(offer, token: $0, asOf: asOf) } }
        let batches = stride(from: 0, to: events.count, by: maximumEvents).enumerated().map { number, start in
            BrazeBatch(number: number, events: Array(events[start..<min(events.count, start + maximumEvents)]))
        }
        return (batches, offers.count - events.count)
    }
}
