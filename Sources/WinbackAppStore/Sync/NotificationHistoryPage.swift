/// One response of the App Store Server API's Get Notification History (`NotificationHistoryResponse`):
/// up to 20 notifications, and whether and how to ask for more.
public struct NotificationHistoryPage: Sendable, Equatable {
    /// Each history item's `signedPayload` (the notification's JWS), in response order.
    public var signedPayloads: [String]
    /// `hasMore`: another page follows (missing: `false`).
    public var hasMore: Bool
    /// `paginationToken`: the query parameter of the next request; required when ``hasMore``.
    public var paginationToken: String?

    /// A page with these values.
    public init(signedPayloads: [String], hasMore: Bool, paginationToken: String?) {
        self.signedPayloads = signedPayloads
        self.hasMore = hasMore
        self.paginationToken = paginationToken
    }

    /// Why a response body is not a `NotificationHistoryResponse`.
    public typealias Malformed = MalformedAPIResponse

    /// Parses a response body. Unknown members (`sendAttempts` and any Apple adds) are ignored; a missing
    /// `notificationHistory` is an empty page; anything else out of shape throws ``Malformed``.
    public static func parse(_ body: [UInt8]) throws(Malformed) -> NotificationHistoryPage {
        let root = try APIResponseBody.object(body)
        var payloads: [String] = []
        switch root["notificationHistory"] {
        case nil, .null?: break
        case .array(let items)?:
            for (index, item) in items.enumerated() {
                guard case .string(let payload)? = item.value["signedPayload"], !payload.isEmpty else {
                    throw Malformed(description: "notificationHistory[\(index)].signedPayload: expected a non-empty string")
                }
                payloads.append(payload)
            }
        case let other?: throw Malformed(description: "notificationHistory: expected an array, found \(other.typeName)")
        }
        let hasMore: Bool
        switch root["hasMore"] {
        case nil, .null?: hasMore = false
        case .bool(let value)?: hasMore = value
        case let other?: throw Malformed(description: "hasMore: expected a boolean, found \(other.typeName)")
        }
        var token: String? = nil
        switch root["paginationToken"] {
        case nil, .null?: break
        case .string(let value)?: token = value.isEmpty ? nil : value
        case let other?: throw Malformed(description: "paginationToken: expected a string, found \(other.typeName)")
        }
        if hasMore, token == nil { throw Malformed(description: "hasMore is true but paginationToken is missing") }
        return NotificationHistoryPage(signedPayloads: payloads, hasMore: hasMore, paginationToken: token)
    }
}
