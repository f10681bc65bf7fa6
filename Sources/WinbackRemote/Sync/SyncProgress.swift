import Foundation

/// The log of `winback sync`: on a terminal, a line per day rewritten as its pages arrive; otherwise (cron,
/// CI) one line per day.
final class SyncProgress {
    private let log: (String) -> Void
    private let isTerminal: Bool

    init(log: @escaping (String) -> Void) {
        self.log = log
        isTerminal = isatty(2) == 1
    }

    /// The day so far (terminal only).
    func update(_ line: String) {
        if isTerminal { FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8)) }
    }

    /// The day's final line.
    func finish(_ line: String) {
        if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        log(line)
    }
}
