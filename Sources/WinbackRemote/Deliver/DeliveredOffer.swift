import WinbackAppStore

/// One line of a published day's `offers.ndjson.gz` as the marketing sinks see it: the line itself (the
/// webhook's batches carry it as written) and the fields Segment and Braze address it by. Only the line is kept
/// whole (a day of a million offers holds its lines, not their parsed trees); the properties are parsed from it
/// as a message is rendered.
struct DeliveredOffer: SinkMessage {
    /// The line, a JSON object, without newline.
    var line: String
    /// `campaignId`.
    var campaignId: String
    /// `accountKey`: the `appAccountToken`, else the subscription's `originalTransactionId`.
    var accountKey: String
    /// `appAccountToken`, or `nil`.
    var appAccountToken: String?
    /// `issuedAt` (ISO 8601), when the offer was signed; `nil` for an offer without a signature.
    var issuedAt: String?

    /// The offer of `line`; `nil` when it is not an offer line.
    init?(line: String) {
        guard let object = try? JSONParser.parse(Array(line.utf8)), let campaignId = object["campaignId"]?.stringValue,
            let accountKey = object["accountKey"]?.stringValue
        else { return nil }
        self.line = line
        self.campaignId = campaignId
        self.accountKey = accountKey
        self.appAccountToken = object["appAccountToken"]?.stringValue
        self.issuedAt = object["issuedAt"]?.stringValue
    }

    /// The offer's stable id among every day's offers: `<campaignId>/<asOf>/<accountKey>` (one offer per campaign,
    /// account and day). Segment's `messageId`.
    func messageId(asOf: String) -> String { "\(campaignId)/\(asOf)/\(accountKey)" }
    var segmentEvent: String { "Winback Offer Selected" }
    var brazeEvent: String { "winback_offer_selected" }
    var timestamp: String? { issuedAt }
    var properties: JSONValue { Self.properties(ofLine: line) }
}
