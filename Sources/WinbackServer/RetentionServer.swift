import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import WinbackAppStore
import WinbackIO
import WinbackJobs

/// `winback serve` on the wire (docs/retention-messaging.md): HTTP/1.1 (HTTPS with a certificate) on SwiftNIO's event loops, one
/// per core, answering with a ``RetentionService``; it watches for newly published days while it runs and
/// stops gracefully: no new connections, in-flight requests answered, the request log written out.
public final class RetentionServer: Sendable {
    /// The service answering requests.
    public let service: RetentionService
    /// The port listened on (the one picked when 0 was asked).
    public let port: Int
    /// `http://host:port` or `https://host:port`.
    public let address: String
    private let group: MultiThreadedEventLoopGroup
    private let listener: any Channel
    private let tracker: ConnectionTracker
    private let watcher: Task<Void, Never>

    private init(
        service: RetentionService, port: Int, address: String, group: MultiThreadedEventLoopGroup, listener: any Channel,
        tracker: ConnectionTracker, watcher: Task<Void, Never>
    ) {
        self.service = service
        self.port = port
        self.address = address
        self.group = group
        self.listener = listener
        self.tracker = tracker
        self.watcher = watcher
    }

    /// Starts listening on `host:port` with `service`; with `tls` (certificate chain and key, PEM files), HTTPS.
    /// At most `maximumConnections` open at once (default ``ConnectionLimit/defaultMaximum()``: the descriptor
    /// limit less 64); a request must arrive wholly within `requestReadTimeout` seconds of its first byte.
    /// Exit 74 when the address cannot be bound or a TLS file cannot be read, 64 when one is not PEM.
    public static func start(
        service: RetentionService, host: String, port: Int, tls: (certificatePath: String, keyPath: String)? = nil,
        maximumConnections: Int? = nil, requestReadTimeout: Double = 10
    ) async throws(JobError) -> RetentionServer {
        let context = try tls.map { (paths) throws(JobError) in
            try makeTLSContext(certificatePath: paths.certificatePath, keyPath: paths.keyPath)
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let tracker = ConnectionTracker()
        let limit = ConnectionLimit(maximum: maximumConnections ?? ConnectionLimit.defaultMaximum())
        let executor = RequestExecutor()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(AcceptHandler(limit: limit)) }
            }
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    }
                    // A connection silent for a minute between requests is closed (Apple's requests come and go in
                    // under a second; an idle client must not hold a connection for ever), and so is one whose request
                    // does not arrive wholly within requestReadTimeout; never one whose request is being answered.
                    let deadline = RequestReadDeadline(
                        idleTimeout: .seconds(60), requestTimeout: .milliseconds(Int64(requestReadTimeout * 1000)))
                    try channel.pipeline.syncOperations.addHandler(deadline)
                    // Errors (bytes that are not HTTP) are answered by RetentionHTTPHandler, after what came before them.
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: false)
                    try channel.pipeline.syncOperations.addHandler(
                        RetentionHTTPHandler(service: service, tracker: tracker, limit: limit, deadline: deadline, executor: executor))
                }
            }
        let listener: any Channel
        do {
            listener = try await bootstrap.bind(host: host, port: port).get()
        } catch {
            try? await group.shutdownGracefully()
            throw .io(IOError(path: "\(host):\(port)", reason: "cannot listen (\(error))"))
        }
        let bound = listener.localAddress?.port ?? port
        let scheme = context == nil ? "http" : "https"
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let watcher = Task { await service.watch() }
        return RetentionServer(
            service: service, port: bound, address: "\(scheme)://\(shownHost):\(bound)", group: group, listener: listener, tracker: tracker,
            watcher: watcher)
    }

    private static func makeTLSContext(certificatePath: String, keyPath: String) throws(JobError) -> NIOSSLContext {
        func read(_ path: String, _ flag: String) throws(JobError) -> [UInt8] {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .io(IOError(path: path, reason: "cannot read \(flag)"))
            }
            return Array(data)
        }
        let (certificateBytes, keyBytes) = (try read(certificatePath, "--tls-cert"), try read(keyPath, "--tls-key"))
        do {
            let chain = try NIOSSLCertificate.fromPEMBytes(certificateBytes)
            guard !chain.isEmpty else { throw JobError.usage("--tls-cert \(certificatePath): no PEM certificate in the file") }
            let key = try NIOSSLPrivateKey(bytes: keyBytes, format: .pem)
            return try NIOSSLContext(
                configuration: .makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key)))
        } catch let error as JobError {
            throw error
        } catch {
            throw .usage("--tls-cert \(certificatePath) / --tls-key \(keyPath): not a PEM certificate chain and its private key (\(error))")
        }
    }

    /// The line printed once listening: `listening` (the address), `port`, `decisionsDay`, `decisions`.
    public var listeningLine: String {
        let (day, count) = service.decisions
        return JSONText.render(
            JSONText.object([
                ("listening", .string(address)), ("port", .integer(Int64(port))), ("decisionsDay", day.map(JSONValue.string) ?? .null),
                ("decisions", .integer(Int64(count))),
            ]))
    }

    /// Stops gracefully: no new connections; requests in flight answered (each closing its connection) for up
    /// to `grace` seconds; then the connections closed, the request log written out. The summary line.
    public func stop(grace: Double = 25) async -> String {
        tracker.startDraining()
        try? await listener.close()
        let deadline = ContinuousClock.now + .milliseconds(Int(grace * 1000))
        while tracker.active > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        watcher.cancel()
        await watcher.value
        try? await group.shutdownGracefully()
        // A request whose body completed while the connections closed is still handled (its connection gone):
        // counted before the summary, as what it wrote is on disk.
        while service.requestsInFlight > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return service.finish()
    }
}
