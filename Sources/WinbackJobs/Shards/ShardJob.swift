import Crypto
import Foundation
import WinbackCore
import WinbackIO
import WinbackIngest

/// `winback run --shard i/N --partial DIR` (docs/sharding.md): reads every input, verifies only the shard's
/// records and writes their outcomes as a partial (``PartialManifest``) for `winback merge`. It publishes
/// nothing and never opens the ledger. With the verified store, the shard's entries live in
/// `<store>/shard-<i>-of-<N>/` (keyed by `i/N`, so they never serve another sharding) and are linked into
/// the partial; with `--no-store` they are written straight into it.
public enum ShardJob {
    /// Runs shard `shard`; returns the summary line.
    public static func run(_ options: RunOptions, shard: ShardSpec) async throws -> String {
        guard let partialOption = options.partialDirectory else {
            throw JobError.usage("--shard: needs --partial DIR (where the partial goes)")
        }
        let loaded = try LoadedConfig.load(path: options.configPath)
        let calendar = try RunJob.calendar(config: loaded.config, asOf: options.asOf, now: options.now())
        var warnings: [String] = []
        do {
            _ = try CampaignParser.parse(loaded.config.campaigns, warnings: &warnings)  // fail fast, as the merge would
        } catch {
            throw JobError.config(file: loaded.path, error)
        }
        let partial = FileSystem.resolve(partialOption, against: FileManager.default.currentDirectoryPath)
        let entries = partial + "/" + PartialManifest.entriesDirectory
        try preparePartialDirectory(partial, entries: entries)

        let digest = VerifiedStore.verifierDigest(loaded.ingestSettings, shard: shard)
        let store: VerifiedStore
        if options.usesStore {
            let root = loaded.storeDirectory(ledgerPath: loaded.ledgerPath(override: options.ledgerOverride))
            store = try VerifiedStore(directory: root + "/shard-\(shard.index)-of-\(shard.count)", verifierDigest: digest, isKeyed: true)
        } else {
            store = try VerifiedStore(directory: entries, verifierDigest: digest, isKeyed: true)
        }
        let isQuiet = options.isQuiet
        let (files, inputWarnings) = try InputDiscovery.discover(loaded)
        let result = try await IngestStage.run(
            loaded.ingestSettings, files: files, inputWarnings: inputWarnings, isQuiet: isQuiet, store: store, shard: shard,
            warn: { RunJob.warn("warning: \($0)", isQuiet: isQuiet) }
        ) { _ in }

        var inputs: [PartialManifest.Input] = []
        for stats in result.inputs {
            let name = store.name(path: stats.path, size: stats.bytes, sha256: stats.sha256)
            let source = store.directory + "/" + name
            guard FileManager.default.fileExists(atPath: source) else {
                throw JobError.io(
                    IOError(
                        path: store.directory,
                        reason: "the shard's entry for \(stats.path) was not written: \(store.writeFailure(path: stats.path) ?? "no entry")"
                    ))
            }
            if store.directory != entries { try link(source, into: entries + "/" + name) }
            inputs.append(PartialManifest.Input(stats: stats, entry: name))
        }
        let counts = result.counts
        let manifest = PartialManifest(
            shard: shard, asOf: calendar.asOfLabel, configSha256: HexDigest.string(SHA256.hash(data: loaded.bytes)),
            winbackVersion: WinbackVersion.current, inputs: inputs, inputWarnings: result.inputWarnings, read: counts.read,
            accepted: counts.accepted, rejected: counts.rejected)
        try FileSystem.writeAtomically(Array(manifest.rendered().utf8), to: partial + "/" + PartialManifest.fileName)
        store.prune()
        return JSONText.render(
            JSONText.object([
                ("command", .string("run")), ("shard", .string(shard.description)), ("asOf", .string(calendar.asOfLabel)),
                ("partial", .string(partial)), ("records", counts.summaryJSON()),
                ("filesFromStore", .integer(Int64(result.filesFromStore))),
                ("exitCode", .integer(0)),
            ]))
    }

    /// Creates `partial` and an empty `entries/`; a previous partial there is removed first (`partial.json`
    /// before anything else, so an interrupted shard never leaves a partial that looks finished).
    private static func preparePartialDirectory(_ partial: String, entries: String) throws(JobError) {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: partial, withIntermediateDirectories: true)
            let manifest = partial + "/" + PartialManifest.fileName
            if manager.fileExists(atPath: manifest) { try manager.removeItem(atPath: manifest) }
            if manager.fileExists(atPath: entries) { try manager.removeItem(atPath: entries) }
            try manager.createDirectory(atPath: entries, withIntermediateDirectories: true)
        } catch {
            throw .io(IOError(path: partial, reason: "cannot prepare the partial directory (\(error.localizedDescription))"))
        }
    }

    /// A hard link of the store's entry in the partial (a copy across file systems).
    private static func link(_ source: String, into destination: String) throws(JobError) {
        if Foundation.link(source, destination) == 0 { return }
        do {
            try FileManager.default.copyItem(atPath: source, toPath: destination)
        } catch {
            throw .io(IOError(path: destination, reason: "cannot copy the shard's entry (\(error.localizedDescription))"))
        }
    }
}
