import Crypto
import WinbackAppStore

/// Creates ES256 compact JWS: `base64url(header).base64url(payload).base64url(r‖s)`.
///
/// Used for the V2 promotional-offer and introductory-offer-eligibility JWS (header
/// `{"alg":"ES256","kid":…,"typ":"JWT"}`) and, with an `x5c` header, for the synthetic sample exports.
public struct JWSSigner: Sendable {
    /// The signing key.
    public let key: P256.Signing.PrivateKey

    /// A signer with `key`.
    public init(key: P256.Signing.PrivateKey) {
        self.key = key
    }

    /// Signs `payload` under `header`; both are rendered compactly with members in their given order.
    public func sign(header: JSONValue, payload: JSONValue) throws -> String {
        try sign(encodedHeader: Self.encode(header: header), payload: Array(JSONText.render(payload).utf8))
    }

    /// The header segment of `header`: base64url of its compact JSON (computed once for a signer that
    /// signs many payloads under one header).
    public static func encode(header: JSONValue) -> [UInt8] {
        var segment: [UInt8] = []
        Base64.appendURL(Array(JSONText.render(header).utf8), to: &segment)
        return segment
    }

    /// Signs the JSON text `payload` under the header segment `encodedHeader` (from ``encode(header:)``),
    /// building the JWS in one byte buffer.
    public func sign(encodedHeader: [UInt8], payload: [UInt8]) throws -> String {
        var jws = encodedHeader
        jws.reserveCapacity(encodedHeader.count + payload.count * 4 / 3 + 92)
        jws.append(UInt8(ascii: "."))
        Base64.appendURL(payload, to: &jws)
        let signature = try key.signature(for: jws)
        jws.append(UInt8(ascii: "."))
        Base64.appendURL(signature.rawRepresentation, to: &jws)
        return String(decoding: jws, as: UTF8.self)
    }
}
