import Foundation
import Testing

@testable import WinbackRemote

/// The Standard Webhooks signature against the specification's published example (the one its Python, JavaScript
/// and Go libraries test), and how a secret file becomes the key.
@Suite struct StandardWebhooksTests {
    @Test func signsThePublishedExample() throws {
        let key = try #require(StandardWebhooks.key(fromSecret: Array("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".utf8)))
        let signature = StandardWebhooks.signature(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", seconds: 1_614_265_330, body: Array(#"{"test": 2432232314}"#.utf8), key: key)
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test(arguments: [
        ("s3cret-for-tests-only", Array("s3cret-for-tests-only".utf8)),  // no prefix: the bytes are the key
        ("whsec_AAEC", [0, 1, 2]),  // whsec_: the base64 after it
    ])
    func aSecretFileIsItsKey(_ secret: String, _ key: [UInt8]) {
        #expect(StandardWebhooks.key(fromSecret: Array(secret.utf8)) == key)
    }

    @Test func aWhsecSecretThatIsNotBase64HasNoKey() {
        #expect(StandardWebhooks.key(fromSecret: Array("whsec_not base64!".utf8)) == nil)
        #expect(StandardWebhooks.key(fromSecret: Array("whsec_".utf8)) == nil)
    }

    @Test func theIdIsTheIdempotencyKeyWithoutSlashes() {
        let headers = StandardWebhooks.headers(idempotencyKey: "winback-voluntary/2026-11-19/3", seconds: 42, body: [], key: [1])
        #expect(headers.map(\.0) == ["webhook-id", "webhook-timestamp", "webhook-signature"])
        #expect(headers[0].1 == "winback-voluntary_2026-11-19_3" && headers[1].1 == "42" && headers[2].1.hasPrefix("v1,"))
    }
}
