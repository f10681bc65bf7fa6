import WinbackAppStore

/// A record found in an input, before verification: a JWS to verify, a decoded payload, or a failure
/// already known from its shape.
public struct RawRecord: Sendable {
    /// What was found.
    public enum Content: Sendable {
        /// A compact JWS expected to hold `kind` (its text as found, without quotes).
        case signed(RecordText, PayloadKind)
        /// A decoded payload object (accepted only with `acceptUnsignedPayloads`).
        case decoded(JSONValue, PayloadKind)
        /// Rejected by shape alone (`malformed_json`, `unknown_shape`, `malformed_jws`).
        case failure(RecordFailure)
    }

    /// Where the record was found.
    public var location: RecordLocation
    /// The JWS, decoded payload or shape failure.
    public var content: Content
    /// The original text kept when the record is rejected.
    public var text: RecordText

    /// A record found at `location`, keeping `text` for a rejection.
    public init(location: RecordLocation, content: Content, text: RecordText) {
        self.location = location
        self.content = content
        self.text = text
    }
}
