/// Why a record was rejected. Stable snake_case codes (docs/inputs.md); the check order of docs/inputs.md decides
/// which code a record with several faults gets.
public enum RejectCode: String, CaseIterable, Sendable, Hashable, Comparable {
    /// A line or document that is not JSON.
    case malformedJSON = "malformed_json"
    /// JSON, but not a shape Winback reads (neither a signed wrapper, a notification, nor a decoded payload).
    case unknownShape = "unknown_shape"
    /// Not three base64url segments with a JSON header and payload, or a JWS value that is not a string.
    case malformedJWS = "malformed_jws"
    /// The JWS header's `alg` is not `ES256`.
    case unsupportedAlgorithm = "unsupported_algorithm"
    /// `x5c` does not hold exactly three certificates (a missing `x5c` counts as zero).
    case invalidChainLength = "invalid_chain_length"
    /// `x5c[0]` or `x5c[1]` is not strict standard base64 of a DER certificate, or the leaf key is not P-256.
    case invalidCertificate = "invalid_certificate"
    /// The leaf → intermediate → configured-root path does not validate (issuers, CA constraints, critical extensions).
    case untrustedChain = "untrusted_chain"
    /// A certificate of the chain is not valid at the payload's `signedDate`.
    case certificateExpired = "certificate_expired"
    /// The leaf lacks OID 1.2.840.113635.100.6.11.1 or the intermediate lacks 1.2.840.113635.100.6.2.1.
    case missingAppleOID = "missing_apple_oid"
    /// The ES256 signature is not 64 bytes or does not verify with the leaf key.
    case invalidSignature = "invalid_signature"
    /// The bundle id (or, in Production, a notification's appAppleId) is not the configured app's.
    case invalidAppIdentifier = "invalid_app_identifier"
    /// The payload's environment is not the configured one.
    case invalidEnvironment = "invalid_environment"
    /// A decoded (unsigned) payload while `trust.acceptUnsignedPayloads` is false.
    case unsignedPayload = "unsigned_payload"
    /// A required field is absent; the message names it.
    case missingField = "missing_field"
    /// A field has the wrong JSON type or value; the message names it, what was expected and what was found.
    case invalidField = "invalid_field"

    /// Order by code name (the summary's `rejectedByCode` order).
    public static func < (lhs: RejectCode, rhs: RejectCode) -> Bool { lhs.rawValue < rhs.rawValue }
}
