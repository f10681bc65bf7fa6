import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP client of `winback sync`: Foundation's `URLSession` (libcurl on Linux), chosen over
/// AsyncHTTPClient because it ships with the toolchain — no dependency, no build time; one POST at a time
/// needs nothing more (Package.swift and docs/performance.md have the measurement). TLS certificates are
/// verified (the session's default); there is no switch to turn that off.
struct HTTPTransport: Sendable {
    /// Why no response arrived: a connection refused or dropped (mid-body included), a timeout, a TLS
    /// failure. Temporary: the request is tried again.
    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    private let session: URLSession
    /// Seconds a request may wait for the server to start or continue answering.
    let timeout: Double

    /// A client whose requests give up after `timeout` seconds without progress (and 4 × `timeout` in all).
    init(timeout: Double) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 4
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
        self.timeout = timeout
    }

    /// POSTs `body` to `url` with `headers`; any HTTP status is a response, not a failure.
    func post(url: URL, headers: [(String, String)], body: [UInt8]) async throws(Failure) -> HTTPResponse {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.httpBody = Data(body)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw Failure(description: describe(error))
        }
        guard let http = response as? HTTPURLResponse else { throw Failure(description: "not an HTTP response") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: fields, body: [UInt8](data))
    }

    /// A URL error's short description, without the URL.
    private func describe(_ error: any Error) -> String {
        guard let error = error as? URLError else { return "network error: \(error.localizedDescription)" }
        switch error.code {
        case .timedOut: return "timed out (no answer for \(timeout.formatted()) s)"
        case .cannotConnectToHost: return "connection refused"
        case .networkConnectionLost: return "connection lost"
        default: return "network error \(error.code.rawValue): \(error.localizedDescription)"
        }
    }
}
