import Crypto
import Foundation
import WinbackCore
import WinbackIO

/// `winback merge` (docs/sharding.md): the shards' partials checked (``PartialSet``), replayed in input order
/// (``PartialReplay``), then the stages of a one-machine run — model, reports, campaigns selected over all
/// accounts (cooldown, `maxOffers`, holdout), signing, the ledger (the merge is its single writer) and
/// publishing `dt=<D>` — so the day is the one a single machine would have published.
public enum MergeJob {
    /// Merges the partials in `partialDirectories` (relative to the current directory) into the run `options` describe.
    public static func run(_ options: RunOptions, partialDirectories: [String]) async throws -> RunJob.Outcome {
        var options = options
        options.usesStore = false
        options.summaryCommand = "merge"
        // The partials are checked before the run takes the output lock or opens the ledger: a refused
        // merge leaves nothing behind.
        let loaded = try LoadedConfig.load(path: options.configPath)
        let asOf = try RunJob.calendar(config: loaded.config, asOf: options.asOf, now: options.now()).asOfLabel
        let partials = try PartialSet.load(partialDirectories, configSha256: HexDigest.string(SHA256.hash(data: loaded.bytes)), asOf: asOf)
        let context = try RunContext.prepare(options)
        defer { withExtendedLifetime(context.lock) {} }
        return try await RunJob.finish(try await RunJob.ingest(context, partials: partials), context)
    }
}
