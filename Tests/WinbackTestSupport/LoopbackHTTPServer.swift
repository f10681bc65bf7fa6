import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The socket side of the test servers (``MockAppStoreServer``, ``MockWebhookReceiver``): listens on an
/// ephemeral loopback port, reads each request (head and `Content-Length` body) on its own thread and hands
/// it to `handle`, which answers on the connection with ``respond(_:status:headers:body:)`` or raw bytes.
public final class LoopbackHTTPServer: Sendable {
    /// One request as read from the connection.
    public struct Incoming: Sendable {
        /// The connection, open until `handle` returns.
        public var connection: Int32
        /// `GET`, `POST`.
        public var method: String
        /// `/path?query`.
        public var target: String
        /// Header names lower-cased.
        public var headers: [String: String]
        /// The body.
        public var body: String
        /// When the connection was accepted.
        public var acceptedAt: ContinuousClock.Instant
    }

    private let listener: Int32
    private let running = Mutex(true)
    /// `http://127.0.0.1:<port>`.
    public let baseURL: String

    /// Starts listening; `handle` is called on a new thread per request.
    public init(handle: @escaping @Sendable (Incoming) -> Void) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw FixtureError(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw FixtureError(description: "bind/listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        baseURL = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
        let thread = Thread { [self] in acceptLoop(handle) }
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting connections.
    public func stop() {
        let wasRunning = running.withLock { running in
            defer { running = false }
            return running
        }
        if wasRunning {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    private func acceptLoop(_ handle: @escaping @Sendable (Incoming) -> Void) {
        while running.withLock({ $0 }) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let acceptedAt = ContinuousClock.now
            let thread = Thread {
                if let (head, body) = Self.readRequest(connection) {
                    let lines = head.components(separatedBy: "\r\n")
                    let words = lines.first?.split(separator: " ").map(String.init) ?? []
                    var headers: [String: String] = [:]
                    for line in lines.dropFirst() {
                        guard let colon = line.firstIndex(of: ":") else { continue }
                        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    }
                    handle(
                        Incoming(
                            connection: connection, method: words.first ?? "", target: words.count > 1 ? words[1] : "", headers: headers,
                            body: body, acceptedAt: acceptedAt))
                }
                close(connection)
            }
            thread.start()
        }
    }

    private static func readRequest(_ connection: Int32) -> (String, String)? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let end = buffer.firstRange(of: separator) {
                let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
                let length =
                    head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                while buffer.count - end.upperBound < length {
                    let count = recv(connection, &chunk, chunk.count, 0)
                    guard count > 0 else { return nil }
                    buffer += chunk[..<count]
                }
                return (head, String(decoding: buffer[end.upperBound..<(end.upperBound + length)], as: UTF8.self))
            }
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }

    /// Answers `status` with a JSON `body` and `headers`, then the connection closes.
    public static func respond(_ connection: Int32, status: Int, headers: [(String, String)] = [], body: String) {
        var head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status")\r\nContent-Type: application/json\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        send(connection, head + body)
    }

    /// Sends `text`.
    public static func send(_ connection: Int32, _ text: String) {
        _ = sendBytes(connection, Array(text.utf8))
    }

    /// Sends `bytes`; `false` when the client went away.
    public static func sendBytes(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }
}
