import Foundation
import Synchronization

/// Segment's batch endpoint or Braze's `/users/track` on loopback, for `winback deliver` tests (docs/deliveries.md):
/// checks each request's `Authorization` against the expected value (401 when wrong), records it, and answers the
/// queued statuses, one per request (then 200).
public final class MockMarketingAPI: Sendable {
    /// A request the mock got.
    public struct Request: Sendable {
        /// `/v1/batch`, `/users/track`.
        public var path: String
        /// Header names lower-cased.
        public var headers: [String: String]
        /// The body.
        public var body: String
        /// The status answered.
        public var status: Int
    }

    private let authorization: String
    private let state = Mutex<(statuses: [Int], requests: [Request])>(([], []))
    private let server = Mutex<LoopbackHTTPServer?>(nil)

    /// A mock accepting requests whose `Authorization` is `authorization`.
    public init(authorization: String) throws {
        self.authorization = authorization
        let started = try LoopbackHTTPServer { [weak self] incoming in self?.receive(incoming) }
        server.withLock { $0 = started }
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { server.withLock { $0?.baseURL } ?? "" }

    /// Statuses for the next requests, in order (after them: 200).
    public func answer(_ statuses: [Int]) { state.withLock { $0.statuses += statuses } }

    /// Every request so far.
    public var requests: [Request] { state.withLock { $0.requests } }

    /// Stops accepting connections.
    public func stop() { server.withLock { $0?.stop() } }

    private func receive(_ incoming: LoopbackHTTPServer.Incoming) {
        let isAuthorized = incoming.headers["authorization"] == authorization
        let status = isAuthorized ? state.withLock { $0.statuses.isEmpty ? 200 : $0.statuses.removeFirst() } : 401
        state.withLock {
            $0.requests.append(Request(path: incoming.target, headers: incoming.headers, body: incoming.body, status: status))
        }
        LoopbackHTTPServer.respond(incoming.connection, status: status, body: status < 300 ? #"{"message":"success"}"# : #"{"error":"x"}"#)
    }
}
