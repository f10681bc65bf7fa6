import Crypto
import Foundation
import WinbackCore

/// One webhook request of `winback deliver` (docs/deliveries.md): up to `batchSize` offer lines of one campaign, in
/// file order, numbered from 0 per campaign and day.
struct WebhookBatch: Sendable {
    var asOf: String
    var campaignId: String
    var number: Int
    /// The `offers.ndjson.gz` lines (JSON objects, without newline).
    var lines: [String]

    /// `{"type": "offers.selected", "asOf", "campaignId", "batch", "offers": [lines]}`, the lines as they are in the file.
    var body: [UInt8] {
        var text =
            "{\"type\":\"offers.selected\",\"asOf\":" + JSONText.render(.string(asOf)) + ",\"campaignId\":"
            + JSONText.render(.string(campaignId))
        text += ",\"batch\":\(number),\"offers\":[" + lines.joined(separator: ",") + "]}"
        return Array(text.utf8)
    }

    /// `Idempotency-Key`: `<campaignId>/<D>/<batch>`.
    var idempotencyKey: String { "\(campaignId)/\(asOf)/\(number)" }

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
            let all = byCampaign[campaign] ?? []
            let size = batchSizes[campaign] ?? batchSize
            return stride(from: 0, to: all.count, by: size).enumerated().map { number, start in
                WebhookBatch(asOf: asOf, campaignId: campaign, number: number, lines: Array(all[start..<min(all.count, start + size)]))
            }
        }
    }
}
