import Synchronization

/// Counts the requests being answered and says when the server is draining (after SIGTERM): then every response
/// closes its connection, and shutdown waits for the count to reach zero.
final class ConnectionTracker: Sendable {
    private let inFlight = Atomic<Int>(0)
    private let draining = Atomic<Bool>(false)

    /// A request is being answered.
    func begin() { inFlight.add(1, ordering: .relaxed) }

    /// A request's response is written.
    func end() { inFlight.subtract(1, ordering: .relaxed) }

    /// The number of requests being answered now.
    var active: Int { inFlight.load(ordering: .relaxed) }

    /// Whether the server stopped taking requests.
    var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// From now on, responses close their connections.
    func startDraining() { draining.store(true, ordering: .relaxed) }
}
