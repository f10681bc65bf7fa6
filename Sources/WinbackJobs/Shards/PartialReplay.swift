import Foundation
import WinbackCore
import WinbackIO
import WinbackIngest

/// The merge's ingest (SPEC §16): per input file, the shards' outcomes read back from their entries and
/// put in the order one machine would have consumed them (by ``RecordOrder``: each record belongs to one
/// shard, so the order is total), then counted and deduplicated as any ingest does.
enum PartialReplay {
    /// Replays `set`; `onReject` sees each rejection in input order. A damaged entry exits 74 naming it.
    static func run(_ set: PartialSet, isQuiet: Bool, onReject: (Rejection) throws -> Void) throws -> IngestResult {
        let compactor = PayloadCompactor()
        var accumulator = IngestAccumulator(compactor: compactor)
        let progress = PhaseProgress(phase: "ingest", isQuiet: isQuiet)
        for (fileIndex, input) in set.inputs.enumerated() {
            var streams: [[(RecordOrder, RecordOutcome)]] = []
            for partial in set.partials {
                let path = partial.entryPath(fileIndex)
                var stream: [(RecordOrder, RecordOutcome)] = []
                do {
                    let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
                    try data.withUnsafeBytes { bytes in
                        try StoreEntryDecoder.check(bytes, keyed: true)
                        try StoreEntryDecoder.decodeKeyed(bytes, source: input.path, compactor: compactor) { stream.append(($0, $1)) }
                    }
                } catch {
                    throw JobError.io(IOError(path: path, reason: "unusable partial entry (\(error))"))
                }
                streams.append(stream)
            }
            var heads = [Int](repeating: 0, count: streams.count)
            while true {
                var next: Int? = nil
                for shard in streams.indices where heads[shard] < streams[shard].count {
                    if let best = next, streams[best][heads[best]].0 <= streams[shard][heads[shard]].0 { continue }
                    next = shard
                }
                guard let shard = next else { break }
                try accumulator.add(streams[shard][heads[shard]].1, onReject: onReject)
                heads[shard] += 1
            }
            progress.advance(by: streams.reduce(0) { $0 + $1.count })
        }
        progress.finish()
        return accumulator.result(inputs: set.inputs, inputWarnings: set.inputWarnings, chainValidations: 0, filesFromStore: 0)
    }
}
