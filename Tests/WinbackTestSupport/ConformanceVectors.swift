import Foundation
import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackCrypto
import X509

/// The vectors produced with Apple's App Store Server Library (`Fixtures/apple-library-vectors.json`).
public struct ConformanceVectors: Sendable {
    public let json: JSONValue

    public init() throws {
        json = try Fixtures.json("apple-library-vectors.json")
    }

    public func string(_ key: String) -> String { json[key]?.stringValue ?? "" }

    /// The vectors' app: Sandbox, `com.example.winback`, 1234567890.
    public var app: AppIdentity {
        var appAppleId: Int64? = nil
        if case .integer(let value)? = json["app_apple_id"] { appAppleId = value }
        return AppIdentity(bundleId: string("bundle_id"), appAppleId: appAppleId, environment: "Sandbox")
    }

    /// A certificate from base64 DER.
    public static func certificate(base64: String) throws -> Certificate {
        guard let der = Base64.decodeStandard(base64) else { throw FixtureError(description: "bad base64 root") }
        return try Certificate(derEncoded: der)
    }

    /// A verifier trusting `rootBase64` (default: the vectors' root).
    public func verifier(rootBase64: String? = nil) throws -> SignedPayloadVerifier {
        let root = try Self.certificate(base64: rootBase64 ?? string("root_ca_der_b64"))
        return SignedPayloadVerifier(chains: ChainValidator(roots: [root]), decoder: PayloadDecoder(app: app))
    }

    /// One negative case: its index, description, JWS and optional own root.
    public struct Case: Sendable, CustomTestStringConvertible {
        public var index: Int
        public var name: String
        public var jws: String
        public var rootBase64: String?
        public var testDescription: String { "#\(index) \(name)" }
    }

    public var negativeCases: [Case] {
        guard case .array(let elements)? = json["negative_cases"] else { return [] }
        return elements.enumerated().map { index, element in
            Case(
                index: index, name: element.value["case"]?.stringValue ?? "",
                jws: element.value["jws"]?.stringValue ?? "",
                rootBase64: element.value["root_ca_der_b64"]?.stringValue)
        }
    }
}
