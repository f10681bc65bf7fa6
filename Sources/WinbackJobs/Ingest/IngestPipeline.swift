import Foundation
import WinbackCore
import WinbackIO
import WinbackIngest

/// Reads every input in order and verifies its records on all cores, handing outcomes to the consumer
/// strictly in input order (file, line, position), so output is deterministic whatever the scheduling.
///
/// The reader fills batches of lines; a bounded window of batches is verified concurrently, so memory
/// stays at `window × batch` records whatever the input size.
public struct IngestPipeline: Sendable {
    /// Verifies each record.
    public var processor: RecordProcessor
    /// The inputs, in reading order.
    public var files: [InputFile]
    /// Concurrent batches in flight (default: 2 × cores).
    public var window: Int
    /// Most lines (or document records) per batch. A batch of lines also ends when its buffer is full
    /// (``LineReader/batchCapacity``, ~400 lines of a transactions export), which is what bounds it in
    /// practice: a batch cut at a line count would carry the rest of its last read into the next buffer.
    public var batchSize: Int
    /// The longest line or `.json` document element held whole (`report.maxLineBytes`); a longer one is one
    /// rejection and reading goes on (docs/inputs.md).
    public var maximumLineBytes: Int
    /// Where unchanged files are replayed from and new ones recorded (docs/verified-store.md); `nil` verifies everything.
    public var store: VerifiedStore?
    /// Told about damaged store entries (the file is verified again).
    public var warn: @Sendable (String) -> Void = { _ in }
    /// A sharded run (docs/sharding.md): only this shard's records are verified and handed on, each with its
    /// ``RecordOrder`` kept in the (keyed) store entries; `nil` verifies every record.
    public var shard: ShardSpec?

    /// A pipeline over `files`; `window` defaults to twice the cores.
    public init(
        processor: RecordProcessor, files: [InputFile], window: Int? = nil, batchSize: Int = 4096,
        maximumLineBytes: Int = LineReader.defaultMaximumLineBytes
    ) {
        self.processor = processor
        self.files = files
        self.window = window ?? max(2, 2 * ProcessInfoCores.count)
        self.batchSize = batchSize
        self.maximumLineBytes = maximumLineBytes
    }

    enum Batch: Sendable {
        /// Lines in the buffer they were read into: one allocation per batch, no copy of a line.
        case lines(source: String, batch: LineBatch)
        /// Records of a `.json` document (or one located failure), the first being record `firstIndex` of its line.
        case records([RawRecord], firstIndex: Int)
    }

    /// A verified batch: its outcomes, and in a sharded run each outcome's index on its line (``RecordOrder``).
    struct Verified: Sendable {
        var outcomes: [RecordOutcome] = []
        var orderIndexes: [Int] = []
    }

    /// Runs the ingest; `consume` sees every outcome in input order. Returns per-file stats and how many
    /// files were replayed from the store. Throws ``JobError/io`` for an unreadable file.
    public func run(progress: PhaseProgress? = nil, consume: (RecordOutcome) throws -> Void) async throws -> (
        inputs: [InputStats], filesFromStore: Int
    ) {
        var stats: [InputStats] = []
        var filesFromStore = 0
        var firstError: (any Error)?
        let processor = self.processor
        let shard = self.shard
        try await withThrowingTaskGroup(of: (Int, Verified).self) { group in
            var submitted = 0
            var nextToEmit = 0
            var pending: [Int: Verified] = [:]
            // Store entries being written, in file order; each completes after its file's last batch is consumed.
            var entries: [PendingEntry] = []

            func receive(_ result: (Int, Verified)) {
                pending[result.0] = result.1
                while let verified = pending.removeValue(forKey: nextToEmit) {
                    let sequence = nextToEmit
                    nextToEmit += 1
                    guard firstError == nil else { continue }
                    do {
                        for outcome in verified.outcomes { try consume(outcome) }
                        progress?.advance(by: verified.outcomes.count)
                    } catch {
                        firstError = error
                    }
                    record(verified, sequence: sequence)
                }
            }

            /// Hands a consumed batch's outcomes to the entry of its file.
            func record(_ verified: Verified, sequence: Int) {
                guard let index = entries.firstIndex(where: { $0.holds(sequence) }) else { return }
                entries[index].writer.append(verified.outcomes, orderIndexes: shard == nil ? nil : verified.orderIndexes)
                finishEntries()
            }

            /// Completes the entries whose files are read and consumed to the end; after a failure, drops them all
            /// (an entry must hold every outcome of its file).
            func finishEntries() {
                if firstError != nil {
                    for entry in entries { entry.writer.abandon() }
                    entries.removeAll()
                }
                while let first = entries.first, let last = first.lastBatch, let name = first.name, let key = first.key,
                    let path = first.path, last < nextToEmit
                {
                    if let warning = first.writer.finish(name: name, key: key, path: path) { warn(warning) }
                    entries.removeFirst()
                }
            }

            func submit(_ batch: Batch) async throws {
                while submitted - nextToEmit >= window, let result = try await group.next() { receive(result) }
                let sequence = submitted
                submitted += 1
                group.addTask { (sequence, await Self.work(batch, processor: processor, shard: shard)) }
            }

            /// Every batch submitted so far, consumed.
            func drain() async throws {
                while let result = try await group.next() { receive(result) }
            }

            let totalBytes = files.reduce(0) { total, file in
                total + ((try? FileManager.default.attributesOfItem(atPath: file.absolutePath)[.size] as? Int) ?? 0)
            }
            var bytesBefore = 0
            for file in files {
                if firstError != nil { break }
                if let store, let replayed = try await replay(file, from: store, drain: drain, consume: consume, progress: progress) {
                    stats.append(replayed)
                    filesFromStore += 1
                    bytesBefore += replayed.bytes
                    progress?.setBytes(done: bytesBefore, total: totalBytes)
                    continue
                }
                let writer = store?.writer()
                if let writer { entries.append(PendingEntry(writer: writer, firstBatch: submitted)) }
                let fileSource: FileByteSource
                do {
                    fileSource = try FileByteSource(path: file.absolutePath, direct: true)
                } catch let error as IOError {
                    throw JobError.io(IOError(path: file.relativePath, reason: error.reason))
                }
                let digesting = DigestingSource(fileSource)
                var source: any ByteSource = file.format.isGzip ? try GzipReader(source: digesting) : digesting
                switch file.format.shape {
                case .ndjson:
                    var reader = LineReader(source: source, maximumLineBytes: maximumLineBytes)
                    while let batch = reader.nextBatch(maximumLines: batchSize) {
                        // Each batch gets its own copy of the path: every record's location retains it, and one
                        // string shared by all batches had both workers and the consumer bouncing its
                        // reference count between cores.
                        try await submit(.lines(source: String(decoding: Array(file.relativePath.utf8), as: UTF8.self), batch: batch))
                        progress?.setBytes(done: bytesBefore + digesting.byteCount, total: totalBytes)
                    }
                    if let damage = reader.damage as? StreamDamage {
                        try await submit(
                            .records(
                                [Self.damageRecord(damage, file: file, line: reader.lineNumber + 1, tail: reader.damagedTail)],
                                firstIndex: 0))
                    }
                    if let error = reader.damage as? IOError {
                        writer?.abandon()
                        throw JobError.io(IOError(path: file.relativePath, reason: error.reason))
                    }
                case .document:
                    var document = DocumentReader(
                        source: file.relativePath, maximumRecordBytes: maximumLineBytes, batchSize: batchSize,
                        read: { try source.read(into: $0) })
                    try await document.run { records, firstIndex in
                        try await submit(.records(records, firstIndex: firstIndex))
                        progress?.setBytes(done: bytesBefore + digesting.byteCount, total: totalBytes)
                    }
                    if let error = document.readError as? IOError {
                        writer?.abandon()
                        throw JobError.io(IOError(path: file.relativePath, reason: error.reason))
                    }
                }
                let done = InputStats(path: file.relativePath, bytes: digesting.byteCount, sha256: digesting.hexDigest())
                stats.append(done)
                if let store, writer != nil, let index = entries.indices.last {
                    entries[index].lastBatch = submitted - 1
                    entries[index].name = store.name(path: file.relativePath, size: done.bytes, sha256: done.sha256)
                    entries[index].key = store.key(path: file.relativePath, size: done.bytes, sha256: done.sha256)
                    entries[index].path = file.relativePath
                    finishEntries()
                }
                bytesBefore += digesting.byteCount
                progress?.setBytes(done: bytesBefore, total: totalBytes)
            }
            try await drain()
            finishEntries()
            for entry in entries { entry.writer.abandon() }
        }
        if let summary = store?.failureSummary() { warn(summary) }
        if let firstError { throw firstError }
        return (stats, filesFromStore)
    }

    /// A store entry being written: its file's batches are `firstBatch…lastBatch` (the last known once the
    /// file is read, with the entry's name).
    struct PendingEntry {
        let writer: VerifiedStoreWriter
        let firstBatch: Int
        var lastBatch: Int?
        var name: String?
        var key: String?
        /// The input's config-relative path.
        var path: String?

        init(writer: VerifiedStoreWriter, firstBatch: Int) {
            self.writer = writer
            self.firstBatch = firstBatch
        }

        func holds(_ batch: Int) -> Bool { firstBatch <= batch && lastBatch.map { batch <= $0 } ?? true }
    }

    /// Replays `file` from `store` when it holds the file's entry: first every batch submitted so far is
    /// consumed (`drain`), then the entry's outcomes, in order. `nil` when the file must be verified.
    private func replay(
        _ file: InputFile, from store: VerifiedStore, drain: () async throws -> Void, consume: (RecordOutcome) throws -> Void,
        progress: PhaseProgress?
    ) async throws -> InputStats? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: file.absolutePath)[.size] as? Int) ?? nil,
            store.mayHold(path: file.relativePath, size: size)
        else { return nil }
        let sha256: String
        do {
            let source = DigestingSource(try FileByteSource(path: file.absolutePath, direct: true))
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while try buffer.withUnsafeMutableBytes({ try source.read(into: $0) }) > 0 {}
            guard source.byteCount == size else { return nil }
            sha256 = source.hexDigest()
        } catch {
            return nil
        }
        guard
            let entry = store.read(
                store.name(path: file.relativePath, size: size, sha256: sha256),
                key: store.key(path: file.relativePath, size: size, sha256: sha256), warn: warn)
        else { return nil }
        try await drain()
        try entry.withUnsafeBytes { bytes in
            var replayed = 0
            func each(_ outcome: RecordOutcome) throws {
                try consume(outcome)
                replayed += 1
                if replayed % 65_536 == 0 { progress?.advance(by: 65_536) }
            }
            if store.isKeyed {
                try StoreEntryDecoder.decodeKeyed(bytes, source: file.relativePath, compactor: processor.compactor) { try each($1) }
            } else {
                try StoreEntryDecoder.decode(bytes, source: file.relativePath, compactor: processor.compactor, each: each)
            }
            progress?.advance(by: replayed % 65_536)
        }
        return InputStats(path: file.relativePath, bytes: size, sha256: sha256)
    }

    /// A damaged gzip stream becomes one located rejection (the lines before it were processed).
    static func damageRecord(_ damage: any Error, file: InputFile, line: Int, tail: [UInt8]) -> RawRecord {
        RawRecord(
            location: RecordLocation(source: file.relativePath, line: line, path: nil),
            content: .failure(RecordFailure(.malformedJSON, "input damaged: \(damage); the rest of the file is unreadable")),
            text: RecordText(bytes: tail))
    }

    /// Verifies a batch on a worker. In a sharded run, records of other shards are skipped and each
    /// outcome's index on its line is kept.
    static func work(_ batch: Batch, processor: RecordProcessor, shard: ShardSpec?) async -> Verified {
        await processor.caches.withCache { cache in
            var verified = Verified()
            func process(_ raw: RawRecord, index: Int) async {
                if let shard {
                    guard ShardRule.shard(of: raw, count: shard.count) == shard.index else { return }
                    let before = verified.outcomes.count
                    await processor.process(raw, into: &verified.outcomes, cache: cache)
                    verified.orderIndexes += repeatElement(index, count: verified.outcomes.count - before)
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
}
