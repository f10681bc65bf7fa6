import Crypto
import Foundation
import Synchronization
import WinbackAnalytics
import WinbackAppStore
import WinbackCrypto
import WinbackIO
import WinbackSampleData

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Retention Messaging requests as the App Store sends them (docs/retention-messaging.md): `{"signedPayload": JWS}`, the JWS
/// signed by a test PKI's leaf with its x5c chain (seed 42 is the one the sample config trusts).
public struct RetentionRequests: Sendable {
    /// The signing chain.
    public let pki: TestPKI

    /// Requests signed by the PKI of `seed`.
    public init(seed: UInt64 = 42) throws {
        pki = try TestPKI.make(seed: seed)
    }

    /// The payload Apple signs, for the sample app; `edit` changes it before signing.
    public static func payload(
        originalTransactionId: String, requestIdentifier: String, signedDate: Int64, productId: String = "com.example.winback.monthly",
        edit: (inout [(String, JSONValue)]) -> Void = { _ in }
    ) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("originalTransactionId", .string(originalTransactionId)), ("appAppleId", .integer(SampleDataGenerator.appAppleId)),
            ("productId", .string(productId)), ("userLocale", .string("en-US")), ("requestIdentifier", .string(requestIdentifier)),
            ("signedDate", .integer(signedDate)), ("environment", .string(SampleDataGenerator.environment)),
        ]
        edit(&members)
        return JSONText.object(members)
    }

    /// The signed JWS of `payload`.
    public func jws(_ payload: JSONValue) throws -> String {
        try JWSSigner(key: pki.leaf.key).sign(header: pki.jwsHeader, payload: payload)
    }

    /// The request body carrying `jws`.
    public static func body(_ jws: String) -> [UInt8] {
        Array(JSONText.render(JSONText.object([("signedPayload", .string(jws))])).utf8)
    }

    /// A signed request body for `originalTransactionId` at `signedDate`.
    public func body(
        originalTransactionId: String, requestIdentifier: String = UUID().uuidString.lowercased(), signedDate: Int64,
        productId: String = "com.example.winback.monthly", edit: (inout [(String, JSONValue)]) -> Void = { _ in }
    ) throws -> [UInt8] {
        Self.body(
            try jws(
                Self.payload(
                    originalTransactionId: originalTransactionId, requestIdentifier: requestIdentifier, signedDate: signedDate,
                    productId: productId, edit: edit)))
    }

    /// Writes `rows` (original transaction id, campaign, account, variant, kind, message, product, offer, plan)
    /// as `<output>/dt=<day>/retention_decisions.csv.gz` and publishes the day (`_SUCCESS`).
    public static func publish(_ rows: [[String?]], day: String, output: URL) throws {
        let directory = output.appendingPathComponent("dt=\(day)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var compressed: [UInt8] = []
        let writer = try GzipWriter {
            compressed += $0; $0.removeAll()
        }
        try writer.write(ReportSchema.retentionDecisions.header)
        for row in rows { try writer.write(CSVFormat.line(row)) }
        try writer.finish()
        try Data(compressed).write(to: directory.appendingPathComponent(ReportSchema.retentionDecisions.name))
        try Data().write(to: directory.appendingPathComponent("_SUCCESS"))
    }
}

/// A clock tests set and move: epoch milliseconds.
public final class TestClock: Sendable {
    private let value: Atomic<Int64>

    /// A clock showing `milliseconds`.
    public init(_ milliseconds: Int64) {
        value = Atomic(milliseconds)
    }

    /// The time now.
    public func now() -> Int64 { value.load(ordering: .relaxed) }

    /// Moves the clock by `milliseconds`.
    public func advance(_ milliseconds: Int64) { value.add(milliseconds, ordering: .relaxed) }
}

/// One HTTP exchange with a loopback server, through URLSession.
public enum LoopbackClient {
    /// The status, headers and body of `method url` with `body`.
    public static func send(_ method: String, _ url: String, body: [UInt8]? = nil) async throws -> (
        status: Int, headers: [String: String], body: String
    ) {
        guard let address = URL(string: url) else { throw FixtureError(description: "not a URL: \(url)") }
        var request = URLRequest(url: address)
        request.httpMethod = method
        request.timeoutInterval = 60
        if let body {
            request.httpBody = Data(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw FixtureError(description: "not an HTTP response") }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        return (http.statusCode, headers, String(decoding: data, as: UTF8.self))
    }
}
