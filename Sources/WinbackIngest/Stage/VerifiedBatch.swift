import WinbackAnalytics

/// One ``InputBatch`` verified: its outcomes in input order and, in a sharded run, each outcome's index on
/// its line (``RecordOrder``).
struct VerifiedBatch: Sendable {
    var outcomes: [RecordOutcome] = []
    var orderIndexes: [Int] = []

    /// Verifies `batch` on a worker, with a cache of `processor`'s no other task holds meanwhile. In a sharded
    /// run, records of other shards are skipped and each outcome's index on its line is kept.
    init(verifying batch: InputBatch, processor: RecordProcessor, shard: ShardSpec?) async {
        self = await processor.caches.withCache { cache in
            var verified = VerifiedBatch()
            func process(_ raw: RawRecord, index: Int) async {
                if let shard {
                    let recordShard = ShardRule.shard(of: raw, count: shard.count)
                    let renewalShard = ShardRule.nestedRenewalShard(of: raw, count: shard.count) ?? recordShard
                    guard recordShard == shard.index || renewalShard == shard.index else { return }
                    let before = verified.outcomes.count
                    await processor.process(raw, into: &verified.outcomes, cache: cache)
                    // Each part is kept by its owner's shard and ordered as one machine orders it: the record,
                    // then its nested transaction, then its nested renewal info (RecordOrder.init(line:index:part:)).
                    var kept = before
                    for position in before..<verified.outcomes.count {
                        let part = RecordOrder.Part(path: verified.outcomes[position].location.path)
                        guard (part == .nestedRenewalInfo ? renewalShard : recordShard) == shard.index else { continue }
                        verified.outcomes.swapAt(kept, position)
                        verified.orderIndexes.append(RecordOrder.orderIndex(index: index, part: part))
                        kept += 1
                    }
                    verified.outcomes.removeSubrange(kept..<verified.outcomes.count)
                } else {
                    await processor.process(raw, into: &verified.outcomes, cache: cache)
                }
            }
            switch batch {
            case .lines(let source, let batch):
                verified.outcomes.reserveCapacity(batch.lines.count)
                var records: [RawRecord] = []
                var prefix = ScannedPrefix()
                for (number, range) in batch.lines {
                    records.removeAll(keepingCapacity: true)
                    if let length = batch.overlongLines[number] {
                        await process(
                            RecordClassifier.overlongRecord(
                                length: length, location: RecordLocation(source: source, line: number, path: nil),
                                prefix: batch.bytes[range]),
                            index: 0)
                        continue
                    }
                    RecordClassifier.classifyLine(batch.bytes, range: range, source: source, line: number, into: &records, prefix: &prefix)
                    for (index, raw) in records.enumerated() { await process(raw, index: index) }
                }
            case .records(let records, let firstIndex):
                for (offset, raw) in records.enumerated() { await process(raw, index: firstIndex + offset) }
            }
            return verified
        }
    }

    private init() {}
}
