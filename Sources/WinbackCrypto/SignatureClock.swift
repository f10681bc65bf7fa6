#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Samples the thread CPU time that signature checks take where they run — SHA-256 of the signing input
/// continued from the header's state, and the ECDSA verification, exactly what `winback bench --verify`
/// times as "the signature check" on warm caches — so a run can report the CPU a record costs beyond its
/// own signature check under the run's conditions (caches shared with inflating, parsing and the other
/// core, the machine's load that day) rather than against a benchmark taken at another moment.
///
/// One check in ``interval`` is timed (two clock reads around each part: the hashing, then the ECDSA
/// verification); the estimate for all checks is their mean times ``checks``. The cost of reading the
/// clock, measured once per clock, is subtracted.
/// Not thread-safe: one worker's ``VerifierScratch`` owns one (and, like the scratch, its counters skip the runtime
/// exclusivity check).
public final class SignatureClock {
    /// Every signature check this clock saw: each record whose signing input was hashed, whether its
    /// header was cached (the sampled path) or new (counted, never timed), and whether it then passed.
    @exclusivity(unchecked) public private(set) var checks = 0
    /// Checks timed.
    @exclusivity(unchecked) public private(set) var sampled = 0
    /// Thread CPU nanoseconds of the timed checks.
    @exclusivity(unchecked) public private(set) var sampledNanoseconds: Int64 = 0
    /// Every how many checks one is timed. A timed check reads the thread CPU clock four times, each a
    /// system call (that clock has no vDSO path): one in 128 keeps that cost negligible per record and
    /// still times tens of thousands of checks in a nightly run.
    public static let interval = 128
    /// Nanoseconds a pair of back-to-back clock reads shows with nothing between them.
    private let readCost: Int64

    /// A clock with no checks yet; measures the cost of reading the clock.
    public init() {
        var least = Int64.max
        for _ in 0..<33 {
            let start = Self.now()
            least = min(least, Self.now() - start)
        }
        readCost = least
    }

    /// Counts a check; the thread CPU clock (ns) when this one is to be timed.
    func begin() -> Int64? {
        checks += 1
        return checks % Self.interval == 0 ? Self.now() : nil
    }

    /// Counts a check that is not to be timed (a record whose header was not cached: its whole signing
    /// input is hashed, not continued from the header's state, so it is not what the clock samples).
    func countUntimed() {
        checks += 1
    }

    /// The thread CPU clock (ns), to time the ECDSA part of a sampled check.
    func read() -> Int64 { Self.now() }

    /// Nanoseconds since `start` (from ``begin()`` or ``read()``), less the cost of reading the clock.
    func elapsed(since start: Int64) -> Int64 {
        max(0, Self.now() - start - readCost)
    }

    /// Adds one timed check. A check that fails before its ECDSA verification is not added: its hashing
    /// alone would pull the mean down.
    func record(nanoseconds: Int64) {
        sampled += 1
        sampledNanoseconds += nanoseconds
    }

    /// Adds `other`'s counts to this one (for a total over all workers).
    public func add(_ other: SignatureClock) {
        checks += other.checks
        sampled += other.sampled
        sampledNanoseconds += other.sampledNanoseconds
    }

    /// Estimated CPU seconds of all ``checks``: the timed ones' mean times their number.
    public var estimatedSeconds: Double {
        sampled == 0 ? 0 : Double(sampledNanoseconds) / Double(sampled) * Double(checks) / 1e9
    }

    private static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
