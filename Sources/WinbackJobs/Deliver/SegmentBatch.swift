import WinbackCore

/// One request to Segment's HTTP Tracking API (docs/deliveries.md): `{"batch": [Track calls]}`, at most 500 KB, each
/// call at most 32 KB (Segment's documented limits). Each offer is a Track call `Winback Offer Selected` of the
/// user whose `userId` is its `appAccountToken` (`anonymousId`: its account key when it has none), `messageId` its
/// stable key, so Segment drops a repeat.
struct SegmentBatch: Sendable {
    /// Segment's limit on one request's body, bytes.
    static let maximumRequestBytes = 500 * 1024
    /// Segment's limit on one message, bytes.
    static let maximumMessageBytes = 32 * 1024
    /// The event name of an offer.
    static let offerEvent = "Winback Offer Selected"

    /// The batch's number among the day's, from 0.
    var number: Int
    /// The offers in it: indexes into the day's offers.
    var offers: [Int]

    /// `{"batch":[…]}`, rendered when sent (a day's batches are not held rendered).
    func body(_ all: [DeliveredOffer], asOf: String) -> [UInt8] {
        Array(("{\"batch\":[" + offers.map { Self.message(all[$0], asOf: asOf) }.joined(separator: ",") + "]}").utf8)
    }

    /// The Track call of `offer`.
    static func message(_ offer: DeliveredOffer, asOf: String) -> String {
        let user: (String, JSONValue) =
            offer.appAccountToken.map { ("userId", .string($0)) } ?? ("anonymousId", .string(offer.accountKey))
        var members: [(String, JSONValue)] = [
            ("type", .string("track")), ("messageId", .string(offer.key(asOf: asOf))), user, ("event", .string(offerEvent)),
        ]
        if let issuedAt = offer.issuedAt { members.append(("timestamp", .string(issuedAt))) }
        members.append(("properties", offer.properties))
        return JSONText.render(JSONText.object(members))
    }

    /// The day's offers cut into batches, in file order, each as large as the request limit allows; offers whose
    /// call is over the message limit are left out and returned (their keys).
    static func batches(
        _ offers: [DeliveredOffer], asOf: String, maximumRequestBytes: Int = maximumRequestBytes,
        maximumMessageBytes: Int = maximumMessageBytes
    ) -> (batches: [SegmentBatch], tooLarge: [String]) {
        let empty = "{\"batch\":[]}".utf8.count
        var batches: [SegmentBatch] = []
        var tooLarge: [String] = []
        var current = SegmentBatch(number: 0, offers: [])
        var bytes = empty
        for (index, offer) in offers.enumerated() {
            let size = message(offer, asOf: asOf).utf8.count
            guard size <= maximumMessageBytes else {
                tooLarge.append(offer.key(asOf: asOf))
                continue
            }
            if !current.offers.isEmpty, bytes + 1 + size > maximumRequestBytes {
                batches.append(current)
                current = SegmentBatch(number: batches.count, offers: [])
                bytes = empty
            }
            bytes += size + (current.offers.isEmpty ? 0 : 1)
            current.offers.append(index)
        }
        if !current.offers.isEmpty { batches.append(current) }
        return (batches, tooLarge)
    }
}
