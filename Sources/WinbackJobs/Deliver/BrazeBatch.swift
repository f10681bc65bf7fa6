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
    /// The offers in it (each with an `appAccountToken`): indexes into the day's offers.
    var offers: [Int]

    /// `{"events":[…]}`, rendered when sent.
    func body(_ all: [DeliveredOffer], asOf: String) -> [UInt8] {
        let events = offers.compactMap { index in all[index].appAccountToken.map { Self.event(all[index], token: $0, asOf: asOf) } }
        return Array(("{\"events\":[" + events.joined(separator: ",") + "]}").utf8)
    }

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
    static func batches(_ offers: [DeliveredOffer], maximumEvents: Int = maximumEvents) -> (batches: [BrazeBatch], skipped: Int) {
        let addressable = offers.indices.filter { offers[$0].appAccountToken != nil }
        let batches = stride(from: 0, to: addressable.count, by: maximumEvents).enumerated().map { number, start in
            BrazeBatch(number: number, offers: Array(addressable[start..<min(addressable.count, start + maximumEvents)]))
        }
        return (batches, offers.count - addressable.count)
    }
}
