/// A steady pace for requests, shared by every concurrent caller (docs/sync.md): a request leaves only when
/// ``interval`` has passed since the one before it left, measured on the clock when each is let go. Callers
/// that arrive together wait and are let go one at a time; one woken late by a busy machine delays the next,
/// never bunches with it.
///
/// ``interval`` is 1.05 s / `requestsPerSecond`, not 1 s / `requestsPerSecond`: requests leave on the pace but
/// reach Apple after a network delay that varies, and with the 5 % margin a variation of up to 50 ms still
/// never puts more than `requestsPerSecond` requests in any one second at the server (any window of 1 s then
/// spans at most 1.05 s of departures). 40 a second is paced as 38.1.
actor RequestPacer {
    /// The spread of network delay the pace tolerates, in seconds.
    static let jitterAllowance = 0.05
    /// The least time between two departures.
    let interval: Duration
    private let clock = ContinuousClock()
    private var lastDeparture: ContinuousClock.Instant?
    private let onDeparture: (@Sendable () -> Void)?

    /// A pace that keeps to `requestsPerSecond` (more than 0) in every second; `onDeparture` is called as each
    /// request is let go (tests measure the pace with it).
    init(requestsPerSecond: Double, onDeparture: (@Sendable () -> Void)? = nil) {
        interval = .nanoseconds(Int64(((1 + Self.jitterAllowance) * 1e9 / requestsPerSecond).rounded(.up)))
        self.onDeparture = onDeparture
    }

    /// Waits until this caller may send its request.
    func waitForTurn() async {
        while true {
            let now = clock.now
            guard let last = lastDeparture, now < last + interval else {
                lastDeparture = now
                onDeparture?()
                return
            }
            do {
                try await Task.sleep(until: last + interval, clock: clock)
            } catch {
                return  // Cancelled: the caller is ending anyway.
            }
        }
    }
}
