import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// `winback serve`'s life on swift-service-lifecycle: a `ServiceGroup` runs the server until SIGTERM (what systemd
/// and Kubernetes send) or SIGINT (Ctrl-C) starts its graceful shutdown: no new connections, requests in flight
/// answered, the request log written out. SIGHUP (`systemctl reload`, a closed terminal) never stops it: each
/// one calls `onHangUp` (serve reloads the newest published day).
public enum ServeLifecycle {
    /// Runs `server` until SIGTERM or SIGINT. `onListening` runs once the signals are trapped (serve prints its
    /// listening line then, so a signal sent on seeing it is never lost); `onShutdown` when the shutdown starts.
    /// Returns the server's summary line.
    public static func run(
        _ server: RetentionServer, logger: Logger, onListening: @escaping @Sendable () -> Void,
        onHangUp: @escaping @Sendable () -> Void, onShutdown: @escaping @Sendable () -> Void
    ) async throws -> String {
        // Trapped before the group starts, so a SIGHUP right after the listening line is handled, never fatal.
        let hangUps = await UnixSignalsSequence(trapping: .sighup)
        let serverService = ServerService(server: server, onListening: onListening, onShutdown: onShutdown)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: serverService),
                    .init(service: HangUpService(signals: hangUps, onHangUp: onHangUp), successTerminationBehavior: .ignore),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        return serverService.summary.withLock { $0 } ?? ""
    }

    /// The server as a service: announced, then waiting for the graceful shutdown, then stopped.
    private final class ServerService: Service {
        let server: RetentionServer
        let onListening: @Sendable () -> Void
        let onShutdown: @Sendable () -> Void
        /// The server's summary line, once stopped.
        let summary = Mutex<String?>(nil)

        init(server: RetentionServer, onListening: @escaping @Sendable () -> Void, onShutdown: @escaping @Sendable () -> Void) {
            self.server = server
            self.onListening = onListening
            self.onShutdown = onShutdown
        }

        func run() async throws {
            onListening()
            try? await gracefulShutdown()
            onShutdown()
            let line = await server.stop()
            summary.withLock { $0 = line }
        }
    }

    /// Calls `onHangUp` for each SIGHUP until the graceful shutdown.
    private struct HangUpService: Service {
        let signals: UnixSignalsSequence
        let onHangUp: @Sendable () -> Void

        func run() async throws {
            for await _ in signals.cancelOnGracefulShutdown() { onHangUp() }
        }
    }
}
