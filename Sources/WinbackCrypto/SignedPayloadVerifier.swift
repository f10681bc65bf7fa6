import Crypto
import WinbackCore

/// Verifies an App Store JWS as Apple's `SignedDataVerifier` does offline, then decodes it.
///
/// Checks run in SPEC §10 order and the first failure names the reject code: segments and base64url
/// (`malformed_jws`) → `alg` (`unsupported_algorithm`) → three `x5c` entries (`invalid_chain_length`) →
/// certificates decode with a P-256 leaf (`invalid_certificate`) → `signedDate` (`missing_field` /
/// `invalid_field`) → path to a configured root (`untrusted_chain`) → every certificate valid at
/// `⌊signedDate / 1000⌋` s, bounds inclusive (`certificate_expired`) → Apple marker OIDs
/// (`missing_apple_oid`) → the 64-byte ES256 signature (`invalid_signature`) → app, environment,
/// field types and required fields (``PayloadDecoder``).
public struct SignedPayloadVerifier: Sendable {
    public let chains: ChainValidator
    public let decoder: PayloadDecoder

    public init(chains: ChainValidator, decoder: PayloadDecoder) {
        self.chains = chains
        self.decoder = decoder
    }

    /// Verifies and decodes `jws` as `kind`; returns the payload and its unknown-enum warnings.
    public func verify(_ jws: String, as kind: PayloadKind) async throws(RecordFailure) -> (AcceptedPayload, [String]) {
        let token = try CompactJWS(parsing: jws)
        let algorithm = token.header["alg"]
        guard algorithm?.stringValue == "ES256" else {
            let found = algorithm.map(FieldValue.describe) ?? "none"
            throw RecordFailure(.unsupportedAlgorithm, "alg: expected 'ES256', found \(found)")
        }
        let chainTexts: [String]
        switch token.header["x5c"] {
        case nil, .null?:
            throw RecordFailure(.invalidChainLength, "x5c: expected 3 certificates, found none (no x5c header)")
        case .array(let elements)?:
            guard elements.count == 3 else {
                throw RecordFailure(.invalidChainLength, "x5c: expected 3 certificates, found \(elements.count)")
            }
            var texts: [String] = []
            for (index, element) in elements.prefix(2).enumerated() {
                guard case .string(let text) = element.value else {
                    throw RecordFailure(
                        .invalidCertificate, "x5c[\(index)]: expected a base64 string, found \(FieldValue.describe(element.value))")
                }
                texts.append(text)
            }
            chainTexts = texts
        case let other?:
            throw RecordFailure(.invalidChainLength, "x5c: expected an array of 3 certificates, found \(FieldValue.describe(other))")
        }
        let chain = await chains.evaluate(leaf: chainTexts[0], intermediate: chainTexts[1])
        if let failure = chain.decodeFailure { throw failure }

        let signedDate: Int64
        switch token.payload["signedDate"] {
        case nil, .null?: throw RecordFailure.missing("signedDate")
        case .integer(let value)?: signedDate = value
        case let other?: throw RecordFailure(FieldError(field: "signedDate", expected: "integer", found: FieldValue.describe(other)))
        }
        if let failure = chain.chainFailure { throw failure }

        let seconds = InstantFormat.floorDivide(signedDate, 1000)
        for window in chain.validityWindows where seconds < window.notBeforeSeconds || seconds > window.notAfterSeconds {
            throw RecordFailure(
                .certificateExpired,
                "\(window.role) certificate not valid at signedDate \(InstantFormat.iso8601(milliseconds: signedDate)) (valid \(InstantFormat.iso8601(milliseconds: window.notBeforeSeconds * 1000)) to \(InstantFormat.iso8601(milliseconds: window.notAfterSeconds * 1000)))"
            )
        }
        if let failure = chain.oidFailure { throw failure }

        guard token.signature.count == 64 else {
            throw RecordFailure(.invalidSignature, "signature: expected 64 bytes (r‖s), found \(token.signature.count)")
        }
        guard let leafKey = chain.leafKey,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: token.signature),
            leafKey.isValidSignature(signature, for: token.signingInput)
        else {
            throw RecordFailure(.invalidSignature, "ES256 signature does not verify with the leaf key")
        }
        return try decoder.decode(token.payload, as: kind)
    }
}
