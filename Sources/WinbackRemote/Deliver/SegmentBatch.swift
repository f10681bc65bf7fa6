import WinbackAppStore

/// One request to Segment's HTTP Tracking API (docs/deliveries.md): `{"batch": [Track calls]}`, at most 500 KB, each
/// call at most 32 KB (Segment's documented limits). Each message (an offer, `Winback Offer Selected`, or a
/// lifecycle event, `Subscription Expired` …) is a Track call of the user whose `userId` is its `appAccountToken`
/// (`anonymousId`: its account key when it has none), `messageId` its stable key, so Segment drops a repeat.
struct SegmentBatch: Sendable {
    /// Segment's limit on one request's body, bytes.
    static let maximumRequestBytes = 500 * 1024
    /// Segment's limit on one message, bytes.
    static let maximumMessageBytes = 32 * 1024

    /// The batch's number among the day's of its stream, from 0.
    var number: Int
    /// The messages in it: indexes into the day's messages of the stream.
    var messages: [Int]

    /// `{"batch":[…]}`, rendered when sent (a day's batches are not held rendered).
    func body(_ all: [some SinkMessage], asOf: String) -> [UInt8] {
        Array(("{\"batch\":[" + messages.map { Self.message(all[$0], asOf: asOf) }.joined(separator: ",") + "]}").utf8)
    }

    /// The Track call of `message`.
    static func message(_ message: some SinkMessage, asOf: String) -> String {
        let user: (String, JSONValue) =
            message.appAccountToken.map { ("userId", .string($0)) } ?? ("anonymousId", .string(message.accountKey))
        var members: [(String, JSONValue)] = [
            ("type", .string("track")), ("messageId", .string(message.messageId(asOf: asOf))), user,
            ("event", .string(message.segmentEvent)),
        ]
        if let timestamp = message.timestamp { members.append(("timestamp", .string(timestamp))) }
        members.append(("properties", message.properties))
        return JSONText.render(JSONText.object(members))
    }

    /// The day's messages cut into batches, in file order, each as large as the request limit allows; messages whose
    /// call is over the message limit are left out and returned (their ids).
    static func batches(
        _ all: [some SinkMessage], asOf: String, maximumRequestBytes: Int = maximumRequestBytes,
        maximumMessageBytes: Int = maximumMessageBytes
    ) -> (batches: [SegmentBatch], tooLarge: [String]) {
        let empty = "{\"batch\":[]}".utf8.count
        var batches: [SegmentBatch] = []
        var tooLarge: [String] = []
        var current = SegmentBatch(number: 0, messages: [])
        var bytes = empty
        for (index, entry) in all.enumerated() {
            let size = message(entry, asOf: asOf).utf8.count
            guard size <= maximumMessageBytes else {
                tooLarge.append(entry.messageId(asOf: asOf))
                continue
            }
            if !current.messages.isEmpty, bytes + 1 + size > maximumRequestBytes {
                batches.append(current)
                current = SegmentBatch(number: batches.count, messages: [])
                bytes = empty
            }
            bytes += size + (current.messages.isEmpty ? 0 : 1)
            current.messages.append(index)
        }
        if !current.messages.isEmpty { batches.append(current) }
        return (batches, tooLarge)
    }
}
