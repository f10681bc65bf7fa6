import Foundation

/// The inputs of `winback run`, with the clock injected so tests and backfills are deterministic.
public struct RunOptions: Sendable {
    public var configPath: String
    /// `YYYY-MM-DD`; default: yesterday in the report time zone.
    public var asOf: String?
    /// Overrides the config's `output`; relative to the current directory.
    public var outputOverride: String?
    public var isQuiet: Bool
    /// The wall clock (read for the default as-of and the lock's start time only).
    public var now: @Sendable () -> Date

    public init(configPath: String, asOf: String? = nil, outputOverride: String? = nil, isQuiet: Bool = false, now: @escaping @Sendable () -> Date = { Date() }) {
        self.configPath = configPath
        self.asOf = asOf
        self.outputOverride = outputOverride
        self.isQuiet = isQuiet
        self.now = now
    }
}
