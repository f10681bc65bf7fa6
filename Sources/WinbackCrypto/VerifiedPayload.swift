import WinbackCore

/// What ``SignedPayloadVerifier`` returns for a JWS that passed every check.
public enum VerifiedPayload: Sendable {
    /// Decoded the general way: the Apple model and its unknown-enum warnings.
    case decoded(AcceptedPayload, warnings: [String])
    /// Decoded by the worker's cache (``VerifierWorkerCache/decodePayload(_:as:)``), which holds the value.
    case decodedByCache
}
