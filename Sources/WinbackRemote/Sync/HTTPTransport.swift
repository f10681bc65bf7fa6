import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import WinbackJobs

/// The HTTP client of every outgoing request (`winback sync`, `winback deliver`): AsyncHTTPClient on SwiftNIO,
/// one client per command, shut down when the command ends (``withTransport(timeout:maximumBodyBytes:_:)``).
/// It sends each request once: retrying is its callers' one loop (``RetryPolicy``), never a layer below it.
/// TLS certificates are verified (the client's default); there is no switch to turn that off.
///
/// What a peer cannot make it do: follow a redirect (the 3xx is the response, so the bearer token never
/// goes to another origin); take longer than ``timeout`` for a whole response, however slowly the body
/// trickles; hold more than ``maximumBodyBytes`` of a body (refused from its `Content-Length` before it is
/// read, else as it arrives); or inflate anything: `identity` is the only encoding asked for, nothing is
/// decompressed, and an answer in another `Content-Encoding` (a gzip bomb) is refused unread.
final class HTTPTransport: Sendable {
    /// Why no usable response arrived: a connection refused or dropped (mid-body included), a timeout, a
    /// TLS failure — temporary, tried again — or a body refused (``isRefused``: over the limit, or encoded
    /// though identity was asked for), which is an unexpected response, not retried.
    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
        /// The answer was refused unread: an unexpected response, not retried.
        var isRefused = false
    }

    private let client: HTTPClient
    /// Seconds a whole request may take, from sending it to the body's last byte.
    let timeout: Double
    /// The largest response body held, in bytes.
    let maximumBodyBytes: Int

    /// A client whose requests give up after `timeout` seconds in all, holding bodies of at most
    /// `maximumBodyBytes`. Shut it down with ``shutdown()``; ``withTransport(timeout:maximumBodyBytes:_:)`` does.
    private init(timeout: Double, maximumBodyBytes: Int) {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: HTTPClient.Configuration.Timeout(connect: .milliseconds(Int64(min(timeout, 10) * 1000))),
            decompression: .disabled)
        configuration.connectionPool = HTTPClient.Configuration.ConnectionPool(idleTimeout: .seconds(30))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.timeout = timeout
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// Runs `body` with a transport (see ``init(timeout:maximumBodyBytes:)``) and shuts its client down after,
    /// whether `body` returned or threw.
    static func withTransport<Value: Sendable>(
        timeout: Double, maximumBodyBytes: Int, _ body: (HTTPTransport) async throws(JobError) -> Value
    ) async throws(JobError) -> Value {
        let transport = HTTPTransport(timeout: timeout, maximumBodyBytes: maximumBodyBytes)
        let result: Result<Value, JobError>
        do {
            result = .success(try await body(transport))
        } catch {
            result = .failure(error)
        }
        try? await transport.client.shutdown()
        return try result.get()
    }

    /// Sends a `method` request (`GET`, `POST` or `PUT` with `body`) to `url` with `headers`, once; any HTTP
    /// status is a response (a redirect too), not a failure.
    func send(method: String, url: URL, headers: [(String, String)], body: [UInt8]?) async throws(Failure) -> HTTPResponse {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.headers.replaceOrAdd(name: "Accept-Encoding", value: "identity")
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let (client, timeout, maximumBodyBytes, prepared) = (self.client, self.timeout, self.maximumBodyBytes, request)
        do {
            // The deadline covers the whole response: a body that trickles a byte at a time ends here.
            return try await withThrowingTaskGroup(of: HTTPResponse?.self) { group in
                group.addTask {
                    try await Self.exchange(prepared, client: client, timeout: timeout, maximumBodyBytes: maximumBodyBytes)
                }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let response = first else {
                    throw Failure(description: "timed out (no complete answer within \(timeout.formatted()) s)")
                }
                return response
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: Self.describe(error))
        }
    }

    /// One request and its bounded body.
    private static func exchange(_ request: HTTPClientRequest, client: HTTPClient, timeout: Double, maximumBodyBytes: Int) async throws
        -> HTTPResponse
    {
        let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
        if let encoding = response.headers.first(name: "content-encoding"), encoding.lowercased() != "identity" {
            throw Failure(
                description: "the response is '\(HTTPResponse.escaped(encoding, limit: 40))'-encoded though only identity was asked for "
                    + "(refused unread: nothing is inflated)",
                isRefused: true)
        }
        let tooLarge = Failure(description: "the response body is over \(maximumBodyBytes) bytes", isRefused: true)
        if let declared = response.headers.first(name: "content-length").flatMap(Int.init), declared > maximumBodyBytes {
            throw tooLarge
        }
        var body: [UInt8] = []
        for try await buffer in response.body {
            guard body.count + buffer.readableBytes <= maximumBodyBytes else { throw tooLarge }
            body.append(contentsOf: buffer.readableBytesView)
        }
        var fields: [String: String] = [:]
        for (name, value) in response.headers { fields[name.lowercased()] = value }
        return HTTPResponse(status: Int(response.status.code), headers: fields, body: body)
    }

    /// A client error's short description, without the URL.
    private static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout: return "timed out"
            case .remoteConnectionClosed: return "connection lost"
            default: return "network error: \(error)"
            }
        }
        if error is CancellationError { return "cancelled" }
        let text = "\(error)"
        if text.contains("connectionRefused") || text.contains("Connection refused") { return "connection refused" }
        return "network error: \(HTTPResponse.escaped(text, limit: 200))"
    }
}
