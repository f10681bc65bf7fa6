import Crypto
import Foundation

/// The Standard Webhooks headers on every webhook request (docs/deliveries.md; standardwebhooks.com), beside
/// `Winback-Signature`, so any Standard Webhooks library (Python, JavaScript, Go, Java, Ruby, PHP, Rust, C#,
/// Elixir) or Svix verifies a delivery as it comes.
enum StandardWebhooks {
    /// The prefix of a Standard Webhooks secret: `whsec_<base64 key>`.
    static let secretPrefix = "whsec_"

    /// The HMAC key of a secret file's text (one trailing newline already removed): the base64-decoded key of a
    /// `whsec_` secret, else the secret's bytes as they are; `nil` when a `whsec_` secret is not base64.
    static func key(fromSecret secret: [UInt8]) -> [UInt8]? {
        guard secret.starts(with: Array(secretPrefix.utf8)) else { return secret }
        let encoded = String(decoding: secret.dropFirst(secretPrefix.utf8.count), as: UTF8.self)
        guard let key = Data(base64Encoded: encoded), !key.isEmpty else { return nil }
        return Array(key)
    }

    /// `webhook-id`: the batch's idempotency key with `/` replaced by `_` (the same on every retry).
    static func id(idempotencyKey: String) -> String {
        idempotencyKey.replacingOccurrences(of: "/", with: "_")
    }

    /// `webhook-signature`: `v1,<base64 HMAC-SHA256(key, "<id>.<seconds>.<body>")>`.
    static func signature(id: String, seconds: Int64, body: [UInt8], key: [UInt8]) -> String {
        let signed = Array("\(id).\(seconds).".utf8) + body
        let code = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: key))
        return "v1," + Data(code).base64EncodedString()
    }

    /// The three headers of a request sent at `seconds` (unix time).
    static func headers(idempotencyKey: String, seconds: Int64, body: [UInt8], key: [UInt8]) -> [(String, String)] {
        let id = id(idempotencyKey: idempotencyKey)
        return [
            ("webhook-id", id), ("webhook-timestamp", String(seconds)),
            ("webhook-signature", signature(id: id, seconds: seconds, body: body, key: key)),
        ]
    }
}
