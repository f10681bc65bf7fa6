import Foundation
import WinbackAnalytics
import WinbackIO

/// Reads every input in order and verifies its records on all cores, handing outcomes to the consumer
/// strictly in input order (file, line, position), so output is deterministic whatever the scheduling.
///
/// Its parts: ``InputFileReader`` fills batches from each file, an ``OrderedWindow`` of batches is verified
/// concurrently (``VerifiedBatch``) and handed on in order, so memory stays at `window × batch` records
/// whatever the input size; unchanged files are replayed from the verified store (``StoreReplay``) and the
/// others recorded in it (``StoreRecording``).
struct IngestPipeline: Sendable {
    /// Verifies each record.
    var processor: RecordProcessor
    /// The inputs, in reading order.
    var files: [InputFile]
    /// Concurrent batches in flight (default: 2 × cores).
    var window: Int
    /// Most lines (or document records) per batch. A batch of lines also ends when its buffer is full
    /// (``LineReader/batchCapacity``, ~400 lines of a transactions export), which is what bounds it in
    /// practice: a batch cut at a line count would carry the rest of its last read into the next buffer.
    var batchSize: Int
    /// The longest line or `.json` document element held whole (`report.maxLineBytes`); a longer one is one
    /// rejection and reading goes on (docs/inputs.md).
    var maximumLineBytes: Int
    /// Where unchanged files are replayed from and new ones recorded (docs/verified-store.md); `nil` verifies everything.
    var store: VerifiedStore?
    /// Told about damaged store entries (the file is verified again).
    var warn: @Sendable (String) -> Void = { _ in }
    /// A sharded run (docs/sharding.md): only this shard's records are verified and handed on, each with its
    /// ``RecordOrder`` kept in the (keyed) store entries; `nil` verifies every record.
    var shard: ShardSpec?

    /// A pipeline over `files`; `window` defaults to twice the cores.
    init(
        processor: RecordProcessor, files: [InputFile], window: Int? = nil, batchSize: Int = 4096,
        maximumLineBytes: Int = LineReader.defaultMaximumLineBytes
    ) {
        self.processor = processor
        self.files = files
        self.window = window ?? max(2, 2 * ProcessInfoCores.count)
        self.batchSize = batchSize
        self.maximumLineBytes = maximumLineBytes
    }

    /// Runs the ingest; `consume` sees every outcome in input order with, in a sharded run, its index on its line
    /// (``RecordOrder``; 0 otherwise). Returns per-file stats and how many files were replayed from the store.
    /// Throws ``IOError`` for an unreadable file, or what `consume` threw.
    func run(progress: PhaseProgress? = nil, consume: (RecordOutcome, Int) throws -> Void) async throws -> (
        inputs: [InputStats], filesFromStore: Int
    ) {
        var stats: [InputStats] = []
        var filesFromStore = 0
        var firstError: (any Error)?
        var recording = StoreRecording(isSharded: shard != nil, warn: warn)
        let processor = self.processor
        let shard = self.shard
        let totalBytes = files.reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file.absolutePath)[.size] as? Int) ?? 0)
        }
        var bytesBefore = 0
        do {
            try await withThrowingTaskGroup(of: (Int, VerifiedBatch).self) { group in
                var window = OrderedWindow<VerifiedBatch>(width: window)

                /// Consumes batch `sequence` (its turn in input order) and hands it to its file's store entry.
                func emit(_ sequence: Int, _ verified: VerifiedBatch) {
                    guard firstError == nil else { return }
                    do {
                        for (position, outcome) in verified.outcomes.enumerated() {
                            try consume(outcome, verified.orderIndexes.isEmpty ? 0 : verified.orderIndexes[position])
                        }
                        progress?.advance(by: verified.outcomes.count)
                        recording.record(verified, sequence: sequence)
                    } catch {
                        firstError = error
                        recording.abandonAll()
                    }
                }

                func submit(_ batch: InputBatch) async throws {
                    try await window.submit(
                        { await VerifiedBatch(verifying: batch, processor: processor, shard: shard) }, to: &group, emit: emit)
                }

                for file in files {
                    if firstError != nil { break }
                    if let store, let replay = StoreReplay(file, store: store, warn: warn) {
                        try await window.drain(&group, emit: emit)
                        guard firstError == nil else { break }
                        try replay.replay(compactor: processor.compactor, progress: progress, consume: consume)
                        stats.append(replay.stats)
                        filesFromStore += 1
                        bytesBefore += replay.stats.bytes
                        progress?.setBytes(done: bytesBefore, total: totalBytes)
                        continue
                    }
                    if let writer = store?.writer() { recording.begin(writer, firstBatch: window.submitted) }
                    let read = try await InputFileReader.read(
                        file, batchSize: batchSize, maximumLineBytes: maximumLineBytes, submit: submit,
                        bytesRead: { progress?.setBytes(done: bytesBefore + $0, total: totalBytes) })
                    stats.append(read)
                    if let store {
                        recording.fileRead(read, lastBatch: window.submitted - 1, store: store, consumedThrough: window.nextToEmit - 1)
                    }
                    bytesBefore += read.bytes
                    progress?.setBytes(done: bytesBefore, total: totalBytes)
                }
                try await window.drain(&group, emit: emit)
            }
        } catch {
            recording.abandonAll()
            throw error
        }
        recording.abandonAll()
        if let summary = store?.failureSummary() { warn(summary) }
        if let firstError { throw firstError }
        return (stats, filesFromStore)
    }
}
