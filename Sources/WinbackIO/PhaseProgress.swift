import CoreMetrics
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Progress of a long phase on stderr: a live line with records/s and an ETA (from input bytes read) when
/// stderr is a terminal, else one
/// log line when the phase ends (`phase=ingest records=12000 seconds=0.84 records_per_second=14285
/// cpu_seconds=1.62`). `cpu_seconds` is the process's user + system CPU over the phase, every thread
/// included, so per-record costs can be told apart by phase. Silent when `isQuiet`. The phase's seconds also go to
/// swift-metrics (`winback_phase_duration_seconds{phase}`, for `--metrics-file`).
public final class PhaseProgress: Sendable {
    private struct State {
        var count = 0
        var lastPrint = 0.0
        var bytesDone = 0
        var bytesTotal = 0
    }

    /// The phase's name in its log line (`ingest`, `model`, `reports`, `sign`).
    public let phase: String
    private let start: Double
    private let startCPU: Double
    private let isTerminal: Bool
    private let isQuiet: Bool
    private let state = Mutex(State())

    /// Starts timing `phase`; `isQuiet` prints nothing.
    public init(phase: String, isQuiet: Bool) {
        self.phase = phase
        self.isQuiet = isQuiet
        self.isTerminal = isatty(2) == 1
        self.start = Self.now()
        self.startCPU = Self.processCPUSeconds()
    }

    /// User + system CPU seconds of the whole process so far.
    package static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
    }

    private static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Counts `count` more records; redraws the live line at most every 0.5 s.
    public func advance(by count: Int) {
        guard !isQuiet else { return }
        let line: String? = state.withLock { state in
            state.count += count
            guard isTerminal else { return nil }
            let now = Self.now()
            guard now - state.lastPrint >= 0.5 else { return nil }
            state.lastPrint = now
            let elapsed = max(now - start, 1e-9)
            let rate = Double(state.count) / elapsed
            var line = "\r\(phase): \(state.count) records, \(Int(rate)) records/s"
            if state.bytesTotal > 0, state.bytesDone > 0 {
                let fraction = min(1, Double(state.bytesDone) / Double(state.bytesTotal))
                let remaining = Int(elapsed / fraction - elapsed)
                line += String(format: ", %.0f%% of input, ETA %dm%02ds", fraction * 100, remaining / 60, remaining % 60)
            }
            return line + "   "
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// Input bytes read so far out of `total` (for the ETA of the live line).
    public func setBytes(done: Int, total: Int) {
        state.withLock { state in
            state.bytesDone = done
            state.bytesTotal = total
        }
    }

    /// Seconds since the phase started.
    public var elapsedSeconds: Double { Self.now() - start }

    /// Ends the phase with one log line; `detail` (`key=value` pairs) is appended to it.
    public func finish(detail: String = "") {
        let seconds = elapsedSeconds
        Gauge(label: "winback_phase_duration_seconds", dimensions: [("phase", phase)]).record(seconds)
        guard !isQuiet else { return }
        let count = state.withLock { $0.count }
        let prefix = isTerminal ? "\r" : ""
        let rate = seconds > 0 ? Int(Double(count) / seconds) : 0
        let cpu = Self.processCPUSeconds() - startCPU
        Diagnostics.logger.info(
            "\(prefix)phase=\(phase) records=\(count) seconds=\(String(format: "%.2f", seconds)) records_per_second=\(rate) cpu_seconds=\(String(format: "%.2f", cpu))\(detail.isEmpty ? "" : " " + detail)"
        )
    }
}
