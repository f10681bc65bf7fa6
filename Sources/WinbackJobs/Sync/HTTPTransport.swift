import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP client of `winback sync`: Foundation's `URLSession` (libcurl on Linux), chosen over
/// AsyncHTTPClient because it ships with the toolchain — no dependency, no build time; one POST at a time
/// needs nothing more (Package.swift and docs/performance.md have the measurement). TLS certificates are
/// verified (the session's default); there is no switch to turn that off.
///
/// What a peer cannot make it do: follow a redirect (the 3xx is the response, so the bearer token never
/// goes to another origin); take longer than ``timeout`` for a whole response, however slowly the body
/// trickles; or hold more than ``maximumBodyBytes`` of a body (refused from its `Content-Length` before it is
/// read, else as it arrives, after any decompression; `identity` is the only encoding asked for).
struct HTTPTransport: Sendable {
    /// Why no usable response arrived: a connection refused or dropped (mid-body included), a timeout, a
    /// TLS failure — temporary, tried again — or a body over the limit (``isTooLarge``), which is not.
    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
        /// The body was larger than ``HTTPTransport/maximumBodyBytes``: an unexpected response, not retried.
        var isTooLarge = false
    }

    private let session: URLSession
    private let delegate: TransferDelegate
    /// Seconds a whole request may take, from sending it to the body's last byte.
    let timeout: Double
    /// The largest response body held, in bytes (after decompression).
    let maximumBodyBytes: Int

    /// A client whose requests give up after `timeout` seconds in all, holding bodies of at most
    /// `maximumBodyBytes` (default 64 MiB: a notification history page is far smaller).
    init(timeout: Double, maximumBodyBytes: Int = 64 << 20) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        delegate = TransferDelegate(maximumBodyBytes: maximumBodyBytes)
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        self.timeout = timeout
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// Sends a `method` request (`GET`, or `POST` with `body`) to `url` with `headers`; any HTTP status is a
    /// response (a redirect too), not a failure.
    func send(method: String, url: URL, headers: [(String, String)], body: [UInt8]?) async throws(Failure) -> HTTPResponse {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        if let body { request.httpBody = Data(body) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        let task = session.dataTask(with: request)
        let timeout = self.timeout
        let result: Result<HTTPResponse, Failure> = await withCheckedContinuation { continuation in
            delegate.start(task, continuation: continuation)
            // The deadline covers the whole response: a body that trickles a byte at a time ends here.
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [delegate] in
                delegate.expire(task, after: timeout)
            }
        }
        return try result.get()
    }
}

/// The session's delegate: collects each task's body, refuses redirects, enforces the body limit and the
/// deadline, and resumes the waiting request exactly once.
private final class TransferDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Transfer {
        var continuation: CheckedContinuation<Result<HTTPResponse, HTTPTransport.Failure>, Never>
        var body = Data()
        var failure: HTTPTransport.Failure?
    }

    private let transfers = Mutex<[Int: Transfer]>([:])
    private let maximumBodyBytes: Int

    init(maximumBodyBytes: Int) {
        self.maximumBodyBytes = maximumBodyBytes
    }

    func start(_ task: URLSessionDataTask, continuation: CheckedContinuation<Result<HTTPResponse, HTTPTransport.Failure>, Never>) {
        transfers.withLock { $0[task.taskIdentifier] = Transfer(continuation: continuation) }
        task.resume()
    }

    /// Ends `task` when it is still running after the deadline.
    func expire(_ task: URLSessionTask, after seconds: Double) {
        let isRunning = transfers.withLock { transfers in
            guard transfers[task.taskIdentifier] != nil else { return false }
            // A failure already recorded (a body over the limit) is the reason, not the deadline.
            guard transfers[task.taskIdentifier]?.failure == nil else { return true }
            transfers[task.taskIdentifier]?.failure = HTTPTransport.Failure(
                description: "timed out (no complete answer within \(seconds.formatted()) s)")
            return true
        }
        if isRunning { task.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Never follow: the redirect is the answer (an unexpected response), and the token stays here.
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        // A declared length over the limit is refused before any of the body is read.
        guard response.expectedContentLength > Int64(maximumBodyBytes) else { return completionHandler(.allow) }
        transfers.withLock { transfers in
            if transfers[dataTask.taskIdentifier]?.failure == nil { transfers[dataTask.taskIdentifier]?.failure = tooLarge }
        }
        completionHandler(.cancel)
        // Foundation on Linux does not always end the task for `.cancel`; cancelling it does.
        dataTask.cancel()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let isTooLarge = transfers.withLock { transfers in
            let id = dataTask.taskIdentifier
            guard transfers[id]?.failure == nil, let held = transfers[id]?.body.count else { return false }
            guard held + data.count <= maximumBodyBytes else {
                transfers[id]?.failure = tooLarge
                transfers[id]?.body = Data()
                return true
            }
            // Appended in place: a copy of the body per chunk would make a large answer quadratic.
            transfers[id]?.body.append(data)
            return false
        }
        if isTooLarge { dataTask.cancel() }
    }

    /// Why a body over the limit was refused.
    private var tooLarge: HTTPTransport.Failure {
        HTTPTransport.Failure(
            description: "the response body is over \(maximumBodyBytes) bytes (a notification history page is far smaller)",
            isTooLarge: true)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = transfer.failure {
            transfer.continuation.resume(returning: .failure(failure))
            return
        }
        if let error {
            transfer.continuation.resume(returning: .failure(HTTPTransport.Failure(description: Self.describe(error))))
            return
        }
        guard let http = task.response as? HTTPURLResponse else {
            transfer.continuation.resume(returning: .failure(HTTPTransport.Failure(description: "not an HTTP response")))
            return
        }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        transfer.continuation.resume(
            returning: .success(HTTPResponse(status: http.statusCode, headers: fields, body: [UInt8](transfer.body))))
    }

    /// A URL error's short description, without the URL.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? URLError else { return "network error: \(error.localizedDescription)" }
        switch error.code {
        case .timedOut: return "timed out"
        case .cannotConnectToHost: return "connection refused"
        case .networkConnectionLost: return "connection lost"
        default: return "network error \(error.code.rawValue): \(error.localizedDescription)"
        }
    }
}
