import Crypto
import Foundation
import WinbackAnalytics
import WinbackAppStore

/// One webhook request of `winback deliver` (docs/deliveries.md): up to `batchSize` lines of one stream — a
/// campaign's offers or one type of lifecycle event — in file order, numbered from 0 per stream and day.
struct WebhookBatch: Sendable {
    /// What a batch carries.
    enum Stream: Sendable, Equatable {
        /// Offer lines of one campaign.
        case offers(campaignId: String)
        /// Lifecycle events of one type.
        case events(LifecycleEvent.Kind)

        /// Whether the batch carries lifecycle events.
        var isEvents: Bool {
            if case .events = self { return true }
            return false
        }
    }

    var asOf: String
    var stream: Stream
    var number: Int
    /// The lines (JSON objects, without newline): `offers.ndjson.gz` lines, or events with their `offer`.
    var lines: [String]

    /// Offers: `{"type": "offers.selected", "asOf", "campaignId", "batch", "offers": [lines]}`; events:
    /// `{"type": "<event type>", "asOf", "batch", "events": [lines]}`; the lines as they are.
    var body: [UInt8] {
        var text: String
        switch stream {
        case .offers(let campaignId):
            text =
                "{\"type\":\"offers.selected\",\"asOf\":" + JSONText.render(.string(asOf)) + ",\"campaignId\":"
                + JSONText.render(.string(campaignId)) + ",\"batch\":\(number),\"offers\":["
        case .events(let kind):
            text =
                "{\"type\":" + JSONText.render(.string(kind.rawValue)) + ",\"asOf\":" + JSONText.render(.string(asOf))
                + ",\"batch\":\(number),\"events\":["
        }
        text += lines.joined(separator: ",") + "]}"
        return Array(text.utf8)
    }

    /// `Idempotency-Key`: `<campaignId>/<D>/<batch>` for offers, `<event type>/<D>/<batch>` for events.
    var idempotencyKey: String {
        switch stream {
        case .offers(let campaignId): "\(campaignId)/\(asOf)/\(number)"
        case .events(let kind): "\(kind.rawValue)/\(asOf)/\(number)"
        }
    }

    /// `Winback-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
    static func signature(body: [UInt8], secret: [UInt8], seconds: Int64) -> String {
        let signed = Array("\(seconds).".utf8) + body
        let code = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: secret))
        return "t=\(seconds),v1=" + code.map { String(format: "%02x", $0) }.joined()
    }

    /// The headers of an attempt at `seconds` (unix time): `Idempotency-Key`, `Winback-Signature` and the Standard
    /// Webhooks headers, both signatures with `key`.
    func headers(key: [UInt8], seconds: Int64) -> [(String, String)] {
        let body = body
        return [("Idempotency-Key", idempotencyKey), ("Winback-Signature", Self.signature(body: body, secret: key, seconds: seconds))]
            + StandardWebhooks.headers(idempotencyKey: idempotencyKey, seconds: seconds, body: body, key: key)
    }

    /// The batches of a day's offer lines: per campaign (in order of first appearance), `batchSize` lines
    /// at a time, in file order. `batchSizes` overrides the size for a campaign an earlier deliver cut.
    static func batches(_ lines: [(campaignId: String, line: String)], asOf: String, batchSize: Int, batchSizes: [String: Int] = [:])
        -> [WebhookBatch]
    {
        var order: [String] = []
        var byCampaign: [String: [String]] = [:]
        for entry in lines {
            if byCampaign[entry.campaignId] == nil { order.append(entry.campaignId) }
            byCampaign[entry.campaignId, default: []].append(entry.line)
        }
        return order.flatMap { campaign -> [WebhookBatch] in
            cut(byCampaign[campaign] ?? [], stream: .offers(campaignId: campaign), asOf: asOf, size: batchSizes[campaign] ?? batchSize)
        }
    }

    /// `lines` of one stream in batches of `size`, in order.
    static func cut(_ lines: [String], stream: Stream, asOf: String, size: Int) -> [WebhookBatch] {
        stride(from: 0, to: lines.count, by: size).enumerated().map { number, start in
            WebhookBatch(asOf: asOf, stream: stream, number: number, lines: Array(lines[start..<min(lines.count, start + size)]))
        }
    }
}
