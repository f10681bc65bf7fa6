import WinbackAppStore

/// What `winback serve` answers a verified request with (docs/retention-messaging.md): Apple's `RealtimeResponseBody`, HTTP 200.
public enum RetentionAnswer: Sendable, Equatable {
    /// `{"promotionalOffer": {"messageIdentifier", "promotionalOfferSignatureV2"}}`: a V2 offer signed now.
    case promotionalOffer(messageIdentifier: String, signatureV2: String)
    /// `{"alternateProduct": {"messageIdentifier", "productId", "billingPlanType"?}}`: a switch-plan message.
    case alternateProduct(messageIdentifier: String, productId: String, billingPlanType: String?)
    /// `{"message": {"messageIdentifier"}}`: a message alone (a campaign's, or the configured default).
    case message(messageIdentifier: String)
    /// `{}`: no choice; Apple falls back to App Store Connect's configuration.
    case none

    /// The request log's and the summary's `kind`: `promotional_offer`, `alternate_product`, `message`, or `nil`.
    public var kind: String? {
        switch self {
        case .promotionalOffer: "promotional_offer"
        case .alternateProduct: "alternate_product"
        case .message: "message"
        case .none: nil
        }
    }

    /// The response body, compact JSON.
    public var json: String { JSONText.render(body) }

    /// The response body as a JSON value.
    public var body: JSONValue {
        switch self {
        case .promotionalOffer(let message, let signature):
            JSONText.object([
                (
                    "promotionalOffer",
                    JSONText.object([("messageIdentifier", .string(message)), ("promotionalOfferSignatureV2", .string(signature))])
                )
            ])
        case .alternateProduct(let message, let productId, let plan):
            JSONText.object([
                (
                    "alternateProduct",
                    JSONText.object(
                        [("messageIdentifier", .string(message)), ("productId", .string(productId))]
                            + (plan.map { [("billingPlanType", JSONValue.string($0))] } ?? []))
                )
            ])
        case .message(let message):
            JSONText.object([("message", JSONText.object([("messageIdentifier", .string(message))]))])
        case .none:
            JSONText.object([])
        }
    }
}
