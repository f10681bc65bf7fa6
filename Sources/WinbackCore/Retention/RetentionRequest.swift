import WinbackAppStore

/// A Retention Messaging request's decoded payload (Apple's `DecodedRealtimeRequestBody`, docs/retention-messaging.md): what the
/// App Store asks when a subscriber opens the cancel sheet. Keys as Apple writes them.
public struct RetentionRequest: Sendable, Equatable {
    /// `originalTransactionId`: the subscription the customer may cancel.
    public var originalTransactionId: String
    /// `appAppleId`: the app's Apple ID (absent in some Sandbox and Xcode requests).
    public var appAppleId: Int64?
    /// `productId`: the subscription's product.
    public var productId: String
    /// `userLocale`: the device's locale, such as `en-US`.
    public var userLocale: String?
    /// `requestIdentifier`: the UUID the App Store gives each request (replays repeat it).
    public var requestIdentifier: String
    /// `signedDate`: when the App Store signed the request, epoch milliseconds.
    public var signedDate: Int64
    /// `environment`: Apple's raw value (`Production`, `Sandbox`, …).
    public var environment: String

    /// A request from its parts.
    public init(
        originalTransactionId: String, appAppleId: Int64?, productId: String, userLocale: String?, requestIdentifier: String,
        signedDate: Int64, environment: String
    ) {
        self.originalTransactionId = originalTransactionId
        self.appAppleId = appAppleId
        self.productId = productId
        self.userLocale = userLocale
        self.requestIdentifier = requestIdentifier
        self.signedDate = signedDate
        self.environment = environment
    }

    /// Reads a verified payload object; a missing or mistyped field is a `malformed_request` refusal naming it.
    public init(payload: JSONValue) throws(RetentionRefusal) {
        func string(_ key: String, required: Bool = true) throws(RetentionRefusal) -> String? {
            switch payload[key] {
            case .string(let text)? where !text.isEmpty: return text
            case nil, .null?: if required { throw RetentionRefusal(.malformedRequest, "\(key) is missing") } else { return nil }
            case let other?: throw RetentionRefusal(.malformedRequest, "\(key): expected a string, found \(FieldValue.describe(other))")
            }
        }
        func integer(_ key: String) throws(RetentionRefusal) -> Int64? {
            switch payload[key] {
            case .integer(let value)?: return value
            case nil, .null?: return nil
            case let other?: throw RetentionRefusal(.malformedRequest, "\(key): expected an integer, found \(FieldValue.describe(other))")
            }
        }
        guard let signedDate = try integer("signedDate") else { throw RetentionRefusal(.malformedRequest, "signedDate is missing") }
        self.init(
            originalTransactionId: try string("originalTransactionId") ?? "", appAppleId: try integer("appAppleId"),
            productId: try string("productId") ?? "", userLocale: try string("userLocale", required: false),
            requestIdentifier: try string("requestIdentifier") ?? "", signedDate: signedDate, environment: try string("environment") ?? "")
    }
}
