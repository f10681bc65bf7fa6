import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Waits for SIGTERM (what systemd and Kubernetes send to stop a service) or SIGINT (Ctrl-C); SIGHUP (what
/// `systemctl reload` and a closed terminal send) does not stop the server: it calls `onHangUp` (serve reloads
/// the newest published day).
public enum TerminationSignal {
    /// Returns the signal's number once SIGTERM or SIGINT arrives; their default action, and SIGHUP's (ending
    /// the process at once), is off from the call on. Each SIGHUP calls `onHangUp`.
    public static func wait(onHangUp: @escaping @Sendable () -> Void = {}) async -> Int32 {
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
                signal(SIGHUP, SIG_IGN)
                let hangUp = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
                hangUp.setEventHandler(handler: onHangUp)
                hangUp.resume()
                state.sources.append(hangUp)
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
