import WinbackCore

/// A compact JWS split into its parts: `BASE64URL(header).BASE64URL(payload).BASE64URL(signature)`.
public struct CompactJWS: Sendable {
    /// The decoded JOSE header (a JSON object).
    public var header: JSONValue
    /// The decoded payload (a JSON object).
    public var payload: JSONValue
    /// The ASCII bytes `header.payload` that the signature covers.
    public var signingInput: [UInt8]
    /// The decoded signature bytes (ES256: 64 bytes `r‖s`).
    public var signature: [UInt8]

    /// Splits and decodes `text`, or throws `malformed_jws` saying which part is wrong.
    public init(parsing text: String) throws(RecordFailure) {
        let utf8 = Substring(text).utf8
        let segments = utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3 else {
            throw RecordFailure(.malformedJWS, "expected 3 dot-separated segments, found \(segments.count)")
        }
        guard let headerBytes = Base64.decodeURL(bytes: segments[0]), !headerBytes.isEmpty else {
            throw RecordFailure(.malformedJWS, "header segment is not base64url")
        }
        guard let payloadBytes = Base64.decodeURL(bytes: segments[1]), !payloadBytes.isEmpty else {
            throw RecordFailure(.malformedJWS, "payload segment is not base64url")
        }
        guard let signatureBytes = Base64.decodeURL(bytes: segments[2]) else {
            throw RecordFailure(.malformedJWS, "signature segment is not base64url")
        }
        do {
            header = try JSONParser.parse(headerBytes)
        } catch {
            throw RecordFailure(.malformedJWS, "header is not JSON: \(error)")
        }
        guard case .object = header else {
            throw RecordFailure(.malformedJWS, "header is a JSON \(header.typeName), expected an object")
        }
        do {
            payload = try JSONParser.parse(payloadBytes)
        } catch {
            throw RecordFailure(.malformedJWS, "payload is not JSON: \(error)")
        }
        guard case .object = payload else {
            throw RecordFailure(.malformedJWS, "payload is a JSON \(payload.typeName), expected an object")
        }
        signingInput = Array(utf8[utf8.startIndex..<segments[1].endIndex])
        signature = signatureBytes
    }
}
