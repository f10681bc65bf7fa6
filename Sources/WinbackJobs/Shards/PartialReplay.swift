import Foundation
import WinbackCore
import WinbackIO
import WinbackIngest

/// The merge's ingest (docs/sharding.md): per input file, the shards' outcomes read back from their entries and
/// put in the order one machine would have consumed them (by ``RecordOrder``: each record belongs to one
/// shard, so the order is total), then counted and deduplicated as any ingest does.
///
/// Nothing in a partial is taken on trust: each entry must carry the key of its input and shard (its path,
/// size, SHA-256 and the shard's verifier digest for `loaded`), and no record may come from two shards (two
/// shards' outcomes at one ``RecordOrder``). Either is 74 naming the partial's entry.
enum PartialReplay {
    /// Replays `set`; `onReject` sees each rejection in input order. A damaged or misplaced entry exits 74 naming it.
    static func run(_ set: PartialSet, loaded: LoadedConfig, isQuiet: Bool, onReject: (Rejection) throws -> Void) throws -> IngestResult {
        let compactor = PayloadCompactor()
        var accumulator = IngestAccumulator(compactor: compactor)
        let progress = PhaseProgress(phase: "ingest", isQuiet: isQuiet)
        for (fileIndex, input) in set.inputs.enumerated() {
            var cursors: [StoreEntryDecoder.KeyedCursor] = []
            for partial in set.partials {
                let path = partial.entryPath(fileIndex)
                let key = StoreEntryEncoder.key(
                    path: input.path, size: input.bytes, sha256: input.sha256,
                    verifierDigest: VerifiedStore.verifierDigest(loaded.ingestSettings, shard: partial.manifest.shard))
                do {
                    let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
                    cursors.append(try StoreEntryDecoder.KeyedCursor(data, source: input.path, key: key, compactor: compactor))
                } catch {
                    throw JobError.io(IOError(path: path, reason: "unusable partial entry (\(error))"))
                }
            }
            /// The shard's next outcome; a damaged entry exits 74 naming it.
            func advance(_ shard: Int) throws -> (RecordOrder, RecordOutcome)? {
                do {
                    return try cursors[shard].next()
                } catch {
                    throw JobError.io(IOError(path: set.partials[shard].entryPath(fileIndex), reason: "unusable partial entry (\(error))"))
                }
            }
            var heads = try cursors.indices.map(advance)
            var replayed = 0
            var previous: (order: RecordOrder, shard: Int)?
            while true {
                var smallest: Int? = nil
                for shard in heads.indices {
                    guard let head = heads[shard] else { continue }
                    if let best = smallest, let bestHead = heads[best], bestHead.0 <= head.0 { continue }
                    smallest = shard
                }
                guard let shard = smallest, let (order, outcome) = heads[shard] else { break }
                // A record's outcomes (a notification's nested records too) come from its one shard.
                if let previous, previous.order == order, previous.shard != shard {
                    throw JobError.io(
                        IOError(
                            path: set.partials[shard].entryPath(fileIndex),
                            reason: "record at line \(order.line) (#\(order.index)) of \(input.path) is also in shard "
                                + "\(set.partials[previous.shard].manifest.shard)'s partial: a record belongs to one shard"))
                }
                previous = (order, shard)
                try accumulator.add(outcome, onReject: onReject)
                replayed += 1
                heads[shard] = try advance(shard)
            }
            progress.advance(by: replayed)
        }
        progress.finish()
        return accumulator.result(inputs: set.inputs, inputWarnings: set.inputWarnings, chainValidations: 0, filesFromStore: 0)
    }
}
