import Synchronization

/// A value shared by concurrent tasks behind a lock (a `Mutex` that closures can capture).
package final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    package init(_ value: Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value locked.
    package func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        try mutex.withLock(body)
    }
}
