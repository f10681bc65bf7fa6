import Foundation
import WinbackJobs

/// The progress of `winback sync --history/--statuses`: ids done of all, requests, the request rate and the
/// time left. On a terminal one line rewritten after every id; otherwise (cron, CI) a line a minute.
final class HistoryProgress: Sendable {
    private let total: Int
    private let client: AppStoreAPIClient
    private let log: (@Sendable (String) -> Void)?
    private let isTerminal: Bool
    private let started = ContinuousClock.now
    private let state = Shared((done: 0, lastLine: ContinuousClock.now))

    /// Reports on `total` ids through `log` (`nil`: quiet).
    init(total: Int, client: AppStoreAPIClient, log: (@Sendable (String) -> Void)?) {
        self.total = total
        self.client = client
        self.log = log
        isTerminal = isatty(2) == 1
    }

    /// One more id is done.
    func idDone() {
        guard let log else { return }
        let now = ContinuousClock.now
        let (done, isDue) = state.withLock { state in
            state.done += 1
            let isDue = now - state.lastLine >= .seconds(60)
            if isDue { state.lastLine = now }
            return (state.done, isDue)
        }
        if isTerminal {
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + line(done: done, now: now)).utf8))
        } else if isDue {
            log(line(done: done, now: now))
        }
    }

    /// The last line.
    func finish() {
        guard let log else { return }
        if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        log(line(done: state.withLock { $0.done }, now: ContinuousClock.now))
    }

    private func line(done: Int, now: ContinuousClock.Instant) -> String {
        let elapsed = max(Double((now - started).components.seconds) + Double((now - started).components.attoseconds) / 1e18, 0.001)
        let requests = client.requests
        var text =
            "sync: \(done) of \(total) ids, \(requests) requests, " + String(format: "%.1f", Double(requests) / elapsed) + " requests/s"
        if done > 0, done < total {
            let left = Int(elapsed / Double(done) * Double(total - done))
            text += ", about " + (left >= 3600 ? "\(left / 3600) h \(left % 3600 / 60) min" : "\(left / 60) min \(left % 60) s") + " left"
        }
        return text
    }
}
