import Crypto
import Foundation
import Synchronization

/// A webhook receiver on loopback for `winback deliver` tests (docs/deliveries.md): it checks each request's
/// `Winback-Signature` and Standard Webhooks signature against the key (401 when either is wrong), records what came, and injects the queued
/// faults into the next requests, one per request.
public final class MockWebhookReceiver: Sendable {
    /// Something to do to a request instead of acknowledging it.
    public enum Fault: Sendable {
        /// Acknowledge normally.
        case none
        /// Answer with this status.
        case status(Int)
        /// Wait this many seconds, then acknowledge (a slow receiver within the client's timeout).
        case slow(Double)
        /// Hold the connection this many seconds without an answer, then close it (past the client's timeout).
        case stall(Double)
        /// Close the connection without an answer.
        case drop
        /// Answer 200 with `Content-Encoding: gzip` and these compressed bytes (a gzip bomb), whatever was asked for.
        case compressed([UInt8])
    }

    /// A request the receiver got.
    public struct Delivery: Sendable {
        /// `Idempotency-Key`.
        public var key: String
        /// The body.
        public var body: String
        /// Whether `Winback-Signature` and the Standard Webhooks headers were right for the body and the key.
        public var isSigned: Bool
        /// Whether the receiver answered 2xx.
        public var isAcknowledged: Bool
    }

    private let secret: [UInt8]
    private let state = Mutex<(faults: [Fault], deliveries: [Delivery])>(([], []))
    private let server = Mutex<LoopbackHTTPServer?>(nil)

    /// Starts a receiver that accepts signatures made with `secret` (the HMAC key).
    public init(secret: [UInt8]) throws {
        self.secret = secret
        let started = try LoopbackHTTPServer { [weak self] incoming in self?.receive(incoming) }
        server.withLock { $0 = started }
    }

    /// `http://127.0.0.1:<port>/hooks/offers`.
    public var url: String { (server.withLock { $0?.baseURL } ?? "") + "/hooks/offers" }

    /// Faults for the next requests, in order.
    public func inject(_ faults: [Fault]) { state.withLock { $0.faults += faults } }

    /// Every request so far.
    public var deliveries: [Delivery] { state.withLock { $0.deliveries } }

    /// Stops accepting connections.
    public func stop() { server.withLock { $0?.stop() } }

    private func receive(_ incoming: LoopbackHTTPServer.Incoming) {
        let key = incoming.headers["idempotency-key"] ?? ""
        let isSigned =
            Self.verify(incoming.headers["winback-signature"] ?? "", body: incoming.body, secret: secret)
            && Self.verifyStandard(incoming.headers, idempotencyKey: key, body: incoming.body, key: secret)
        let fault = state.withLock { $0.faults.isEmpty ? Fault.none : $0.faults.removeFirst() }
        var delivery = Delivery(key: key, body: incoming.body, isSigned: isSigned, isAcknowledged: false)
        switch fault {
        case .status(let status):
            LoopbackHTTPServer.respond(incoming.connection, status: status, body: #"{"error":"injected"}"#)
        case .drop:
            break
        case .compressed(let bytes):
            let head =
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
                + "Content-Length: \(bytes.count)\r\nConnection: close\r\n\r\n"
            _ = LoopbackHTTPServer.sendBytes(incoming.connection, Array(head.utf8) + bytes)
        case .stall(let seconds):
            state.withLock { $0.deliveries.append(delivery) }
            Thread.sleep(forTimeInterval: seconds)
            return
        case .slow(let seconds):
            Thread.sleep(forTimeInterval: seconds)
            delivery.isAcknowledged = isSigned
            LoopbackHTTPServer.respond(incoming.connection, status: isSigned ? 200 : 401, body: #"{"ok":true}"#)
        case .none:
            delivery.isAcknowledged = isSigned
            LoopbackHTTPServer.respond(incoming.connection, status: isSigned ? 200 : 401, body: isSigned ? #"{"ok":true}"# : "{}")
        }
        state.withLock { $0.deliveries.append(delivery) }
    }

    /// Checks the Standard Webhooks headers as its libraries do: `webhook-id` (the idempotency key, `/` as `_`),
    /// `webhook-timestamp`, and `webhook-signature` `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`.
    public static func verifyStandard(_ headers: [String: String], idempotencyKey: String, body: String, key: [UInt8]) -> Bool {
        guard let id = headers["webhook-id"], let timestamp = headers["webhook-timestamp"], let signature = headers["webhook-signature"],
            id == idempotencyKey.replacingOccurrences(of: "/", with: "_"), Int64(timestamp) != nil
        else { return false }
        let expected = HMAC<SHA256>.authenticationCode(for: Array("\(id).\(timestamp).\(body)".utf8), using: SymmetricKey(data: key))
        return signature.split(separator: " ").contains { $0 == "v1," + Data(expected).base64EncodedString() }
    }

    /// Checks `t=<seconds>,v1=<hex>` as a receiver would: HMAC-SHA256(secret, "<t>.<body>").
    public static func verify(_ header: String, body: String, secret: [UInt8]) -> Bool {
        var seconds: String?
        var signature: String?
        for part in header.split(separator: ",") {
            if part.hasPrefix("t=") { seconds = String(part.dropFirst(2)) }
            if part.hasPrefix("v1=") { signature = String(part.dropFirst(3)) }
        }
        guard let seconds, let signature else { return false }
        let expected = HMAC<SHA256>.authenticationCode(for: Array("\(seconds).\(body)".utf8), using: SymmetricKey(data: secret))
        return expected.map { String(format: "%02x", $0) }.joined() == signature
    }
}
