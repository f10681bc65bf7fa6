import Synchronization

/// Values a process that is about to exit leaves for the operating system to reclaim, instead of freeing
/// them one allocation at a time: the model of a nightly run is millions of objects, and releasing them
/// costs CPU that buys nothing.
enum ExitReclaim {
    private static let kept = Mutex<[any Sendable]>([])

    /// Keeps `value` alive until the process exits.
    static func keep(_ value: any Sendable) {
        kept.withLock { $0.append(value) }
    }
}
