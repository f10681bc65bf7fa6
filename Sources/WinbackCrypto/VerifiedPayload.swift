import WinbackCore

/// What ``SignedPayloadVerifier`` returns for a JWS that passed every check.
public enum VerifiedPayload: Sendable {
    /// Decoded the general way: the Apple model and its unknown-enum warnings.
    case decoded(AcceptedPayload, warnings: [String])
    /// Decoded by ``FastPayloadDecoder`` straight into the kept form (no warnings by construction).
    case kept(KeptPayload)
}
