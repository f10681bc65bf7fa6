import Logging

/// The logger every command speaks through on stderr (swift-log, ``StderrLogHandler``): progress at `info`,
/// rejected records at `debug` (shown with `--verbose`), warnings at `warning`, errors at `error`.
public enum Diagnostics {
    /// The process's logger, labelled `winback`; made on first use with the handler ``bootstrap(level:)`` set.
    public static let logger = Logger(label: "winback")

    /// Makes ``StderrLogHandler`` at `level` the process's handler; once per process, before anything logs (the
    /// command line runs one command).
    public static func bootstrap(level: Logger.Level) {
        LoggingSystem.bootstrap { _ in StderrLogHandler(level: level) }
    }
}
