import WinbackAppStore

/// One request to Braze's `/users/track` (docs/deliveries.md): `{"events": [...]}`, at most 75 events (Braze's
/// documented limit). Each message is the custom event (`winback_offer_selected`, `subscription_expired`, …) of the
/// user whose `external_id` is its `appAccountToken`; one without a token cannot be addressed in Braze and is
/// skipped (and counted).
struct BrazeBatch: Sendable {
    /// Braze's limit on events per request.
    static let maximumEvents = 75

    /// The batch's number among the day's of its stream, from 0.
    var number: Int
    /// The messages in it (each with an `appAccountToken`): indexes into the day's messages of the stream.
    var messages: [Int]

    /// `{"events":[…]}`, rendered when sent.
    func body(_ all: [some SinkMessage], asOf: String) -> [UInt8] {
        let events = messages.compactMap { index in all[index].appAccountToken.map { Self.event(all[index], token: $0, asOf: asOf) } }
        return Array(("{\"events\":[" + events.joined(separator: ",") + "]}").utf8)
    }

    /// The event of `message`, whose `appAccountToken` is `token`; its `time` (required by Braze) is when it happened
    /// (an offer: when it was signed), else the start of the as-of day (UTC).
    static func event(_ message: some SinkMessage, token: String, asOf: String) -> String {
        JSONText.render(
            JSONText.object([
                ("external_id", .string(token)), ("name", .string(message.brazeEvent)),
                ("time", .string(message.timestamp ?? asOf + "T00:00:00Z")), ("properties", message.properties),
            ]))
    }

    /// The day's messages with an `appAccountToken` in batches of `maximumEvents`, in file order, and the number
    /// skipped for having none.
    static func batches(_ all: [some SinkMessage], maximumEvents: Int = maximumEvents) -> (batches: [BrazeBatch], skipped: Int) {
        let addressable = all.indices.filter { all[$0].appAccountToken != nil }
        let batches = stride(from: 0, to: addressable.count, by: maximumEvents).enumerated().map { number, start in
            BrazeBatch(number: number, messages: Array(addressable[start..<min(addressable.count, start + maximumEvents)]))
        }
        return (batches, all.count - addressable.count)
    }
}
