import Foundation
import WinbackAppStore
import WinbackIO
import WinbackIngest

/// The partials `winback merge` was given, read and checked (docs/sharding.md): the `N` distinct shards of one run —
/// the same config (its SHA-256), as-of date, `N` and inputs. Anything else is refused with 64 naming what differs.
struct PartialSet {
    /// One shard's partial directory and its manifest.
    struct Partial {
        var directory: String
        var manifest: PartialManifest
        /// A reader of the record file `name` (one of ``PartialManifest/recordFiles``).
        func records(_ name: String) throws(JobError) -> PartialRecordReader {
            guard let expected = manifest.files[name] else { throw .internalError("partial file \(name) unknown") }
            return try PartialRecordReader(path: directory + "/" + name, expected: expected)
        }
    }

    /// The partials, by shard index.
    let partials: [Partial]

    /// The inputs every shard read, in input order.
    var inputs: [InputStats] { partials[0].manifest.inputs }
    /// Warnings about the inputs, as the shards saw them.
    var inputWarnings: [String] { partials[0].manifest.inputWarnings }

    /// Reads `directories` (resolved against the current directory) and checks them against the merge's
    /// config (`configSha256`) and as-of date.
    static func load(_ directories: [String], configSha256: String, asOf: String) throws(JobError) -> PartialSet {
        guard !directories.isEmpty else { throw .usage("--partials: expected the shards' partial directories, found none") }
        var partials: [Partial] = []
        for option in directories {
            let directory = FileSystem.resolve(option, against: FileManager.default.currentDirectoryPath)
            let path = directory + "/" + PartialManifest.fileName
            guard FileManager.default.fileExists(atPath: path) else {
                throw .usage("--partials: \(option) has no \(PartialManifest.fileName) (not a partial, or its shard did not finish)")
            }
            let manifest: PartialManifest
            do {
                manifest = try PartialManifest.parse(try FileSystem.readAll(path))
            } catch let error as ConfigError {
                throw .usage("--partials: \(path): \(error.key): \(error.message)")
            } catch let error as JobError {
                throw error
            } catch {
                throw .internalError("\(error)")
            }
            guard manifest.configSha256 == configSha256 else {
                throw .usage(
                    "--partials: \(option) is shard \(manifest.shard) of another config (sha256 \(manifest.configSha256.prefix(12))…, "
                        + "this config \(configSha256.prefix(12))…)")
            }
            guard manifest.asOf == asOf else {
                throw .usage("--partials: \(option) is shard \(manifest.shard) as of \(manifest.asOf), not \(asOf)")
            }
            partials.append(Partial(directory: directory, manifest: manifest))
        }
        let count = partials[0].manifest.shard.count
        for partial in partials where partial.manifest.shard.count != count {
            throw .usage(
                "--partials: \(partial.directory) is shard \(partial.manifest.shard) but \(partials[0].directory) is shard "
                    + "\(partials[0].manifest.shard): different N")
        }
        var byIndex: [Int: Partial] = [:]
        for partial in partials {
            if let other = byIndex[partial.manifest.shard.index] {
                throw .usage("--partials: shard \(partial.manifest.shard) is given twice (\(other.directory) and \(partial.directory))")
            }
            byIndex[partial.manifest.shard.index] = partial
        }
        let missing = (0..<count).filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            throw .usage(
                "--partials: shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) missing")
        }
        let ordered = (0..<count).compactMap { byIndex[$0] }
        let inputs = ordered[0].manifest.inputs
        for partial in ordered.dropFirst() where partial.manifest.inputs != inputs {
            let differing = zip(partial.manifest.inputs, inputs).first { $0 != $1 }.map { "\($0.0.path)" }
            throw .usage(
                "--partials: shard \(partial.manifest.shard) read other inputs than shard \(ordered[0].manifest.shard) "
                    + (differing.map { "(\($0) differs)" } ?? "(\(partial.manifest.inputs.count) files against \(inputs.count))"))
        }
        return PartialSet(partials: ordered)
    }
}
