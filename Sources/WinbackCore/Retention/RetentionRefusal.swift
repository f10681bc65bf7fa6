import WinbackAnalytics

/// Why `winback serve` refused a Retention Messaging request (docs/retention-messaging.md): HTTP 400 with `{"error": code}`, no
/// offer, and a line in the request log.
public struct RetentionRefusal: Error, Sendable, Equatable {
    /// The refusal's code, the `error` of the response body.
    public enum Code: Sendable, Hashable {
        /// The body is not a JSON object with a string `signedPayload`.
        case malformedBody
        /// The JWS failed a check of a record's verification (docs/inputs.md): its reject code, such as `invalid_signature`.
        case unverified(RejectCode)
        /// The verified payload lacks a field the request needs, or has one of the wrong type.
        case malformedRequest
        /// `appAppleId` is not the config's `app.appAppleId`.
        case wrongApp
        /// `environment` is not the config's `app.environment`.
        case wrongEnvironment
        /// `signedDate` is more than 5 minutes from now.
        case staleRequest
        /// The `requestIdentifier` was answered in the last 10 minutes.
        case replayedRequest

        /// The code as the response and the log write it.
        public var text: String {
            switch self {
            case .malformedBody: "malformed_body"
            case .unverified(let code): code.rawValue
            case .malformedRequest: "malformed_request"
            case .wrongApp: "wrong_app"
            case .wrongEnvironment: "wrong_environment"
            case .staleRequest: "stale_request"
            case .replayedRequest: "replayed_request"
            }
        }
    }

    /// What failed.
    public var code: Code
    /// A sentence for the operator (never sent to the caller).
    public var detail: String

    /// A refusal with `code` and `detail`.
    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }
}
