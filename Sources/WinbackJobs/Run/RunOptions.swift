import Foundation
import WinbackAnalytics

/// The inputs of `winback run`, with its ``Effects`` injected so tests and backfills are deterministic.
public struct RunOptions: Sendable, EffectsHolding {
    /// The config file, as given on the command line.
    public var configPath: String
    /// `YYYY-MM-DD`; default: yesterday in the report time zone.
    public var asOf: String?
    /// Overrides the config's `output`; relative to the current directory.
    public var outputOverride: String?
    /// No progress and no warnings on stderr.
    public var isQuiet: Bool
    /// Every rejection as a compiler-style line on stderr.
    public var isVerbose: Bool = false
    /// Overrides the config's `ledger` (tests); relative to the current directory.
    public var ledgerOverride: String?
    /// The clock, waiting, jitter and nonces (``Effects``).
    public var effects: Effects
    /// Environment variables (`WINBACK_SIGNING_KEY_FILE`).
    public var environment: [String: String]
    /// Read unchanged input files from the verified store and write new ones to it (docs/verified-store.md); `--no-store` turns it off.
    public var usesStore = true
    /// `--shard i/N` (docs/sharding.md): verify only this shard's records and write a partial to ``partialDirectory``
    /// instead of publishing; `nil` for a whole run.
    public var shard: ShardSpec?
    /// Where a shard writes its partial (`--partial DIR`; relative to the current directory).
    public var partialDirectory: String?
    /// The `command` of the summary line (`run`, or `merge` for a run whose ingest is the shards' partials).
    public var summaryCommand = "run"
    /// Accounts signed (and written) per chunk; only memory and scheduling depend on it, never the output.
    public var signingChunkSize = 4096
    /// The process exits right after the run (the CLI): the model is then left for the system to reclaim
    /// rather than freed object by object. Leave it `false` where runs follow one another (tests).
    public var exitsAfterRun = false

    /// Options with the real clock, random nonces and the process environment unless given.
    public init(
        configPath: String, asOf: String? = nil, outputOverride: String? = nil, ledgerOverride: String? = nil, isQuiet: Bool = false,
        now: @escaping @Sendable () -> Date = { Date() }, nonce: @escaping @Sendable () -> String = RandomNonce.make,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.configPath = configPath
        self.asOf = asOf
        self.outputOverride = outputOverride
        self.ledgerOverride = ledgerOverride
        self.isQuiet = isQuiet
        self.effects = Effects(now: now, nonce: nonce)
        self.environment = environment
    }
}
