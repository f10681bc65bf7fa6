import WinbackAnalytics
import WinbackAppStore

/// What a JWS header says, parsed once per distinct header (an export repeats the same header — the
/// same x5c chain — for millions of records).
struct JWSHeader: Sendable {
    /// The header segment is not base64url JSON (`malformed_jws`).
    var malformed: RecordFailure?
    /// `alg` is not ES256.
    var algorithmFailure: RecordFailure?
    /// `x5c` missing, not an array, not 3 entries (`invalid_chain_length`) or entries not strings (`invalid_certificate`).
    var chainFailure: RecordFailure?
    /// `x5c[0]`, `x5c[1]` when the header is well-formed.
    var leaf = ""
    var intermediate = ""

    init(segment: UnsafeBufferPointer<UInt8>) {
        guard let bytes = Base64.decodeURL(buffer: segment), !bytes.isEmpty else {
            malformed = RecordFailure(.malformedJWS, "header segment is not base64url")
            return
        }
        let header: JSONValue
        do {
            header = try JSONParser.parse(bytes)
        } catch {
            malformed = RecordFailure(.malformedJWS, "header is not JSON: \(error)")
            return
        }
        guard case .object = header else {
            malformed = RecordFailure(.malformedJWS, "header is a JSON \(header.typeName), expected an object")
            return
        }
        let algorithm = header["alg"]
        if algorithm?.stringValue != "ES256" {
            algorithmFailure = RecordFailure(
                .unsupportedAlgorithm, "alg: expected 'ES256', found \(algorithm.map(FieldValue.describe) ?? "none")")
        }
        switch header["x5c"] {
        case nil, .null?:
            chainFailure = RecordFailure(.invalidChainLength, "x5c: expected 3 certificates, found none (no x5c header)")
        case .array(let elements)?:
            guard elements.count == 3 else {
                chainFailure = RecordFailure(.invalidChainLength, "x5c: expected 3 certificates, found \(elements.count)")
                return
            }
            for (index, element) in elements.prefix(2).enumerated() {
                guard case .string(let text) = element.value else {
                    chainFailure = RecordFailure(
                        .invalidCertificate, "x5c[\(index)]: expected a base64 string, found \(FieldValue.describe(element.value))")
                    return
                }
                if index == 0 { leaf = text } else { intermediate = text }
            }
        case let other?:
            chainFailure = RecordFailure(
                .invalidChainLength, "x5c: expected an array of 3 certificates, found \(FieldValue.describe(other))")
        }
    }
}
