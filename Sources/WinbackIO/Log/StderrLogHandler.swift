import Foundation
import Logging

/// swift-log's handler for what the commands say on stderr (docs/operations.md): each message is one line, as
/// written — `phase=ingest records=… seconds=…`, compiler-style rejects `file:line: error: code: message`,
/// `warning: …`, `winback: error: …` — with no timestamp, level or label added, so scripts that grep these lines
/// and editors that jump to a reject keep working. The level decides what shows: `--quiet` warnings and errors, by
/// default info and up, `--verbose` debug (every reject).
public struct StderrLogHandler: LogHandler {
    /// The lowest level shown.
    public var logLevel: Logger.Level
    /// Kept for swift-log's contract; never printed (the lines carry what they say).
    public var metadata: Logger.Metadata = [:]
    /// Kept for swift-log's contract; never consulted.
    public var metadataProvider: Logger.MetadataProvider?

    /// A handler showing `level` and up.
    public init(level: Logger.Level) {
        self.logLevel = level
    }

    /// One metadata value (kept, never printed).
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes the message and a newline to stderr, unbuffered.
    public func log(event: LogEvent) {
        FileHandle.standardError.write(Data((event.message.description + "\n").utf8))
    }
}
