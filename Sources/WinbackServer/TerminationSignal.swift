import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Waits for SIGTERM (what systemd and Kubernetes send to stop a service) or SIGINT (Ctrl-C).
public enum TerminationSignal {
    /// Returns the signal's number once one of them arrives; their default action (ending the process at once) is off from the call on.
    public static func wait() async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let queue = DispatchQueue(label: "winback.serve.signals")
            let state = SignalSources(continuation: continuation)
            queue.sync {
                for number in [SIGTERM, SIGINT] {
                    signal(number, SIG_IGN)
                    let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                    source.setEventHandler { state.fire(number) }
                    source.resume()
                    state.sources.append(source)
                }
            }
        }
    }

    /// The sources and the waiter, touched only on the signal queue.
    private final class SignalSources: @unchecked Sendable {
        var sources: [any DispatchSourceSignal] = []
        var continuation: CheckedContinuation<Int32, Never>?

        init(continuation: CheckedContinuation<Int32, Never>) {
            self.continuation = continuation
        }

        func fire(_ number: Int32) {
            continuation?.resume(returning: number)
            continuation = nil
            for source in sources { source.cancel() }
            sources = []
        }
    }
}
