/// The verified-store entries being written during an ingest, in file order (docs/verified-store.md). A
/// file's entry receives its batches' outcomes as they are consumed and is completed once the file has been
/// read to its end and its last batch consumed; an entry must hold every outcome of its file, so after a
/// failure the unfinished ones are abandoned.
struct StoreRecording {
    /// An entry being written: its file's batches are `firstBatch…lastBatch` (the last known once the file
    /// is read, with the entry's name).
    private struct PendingEntry {
        let writer: VerifiedStoreWriter
        let firstBatch: Int
        var lastBatch: Int?
        var name: String?
        var key: String?
        /// The input's config-relative path.
        var path: String?

        func holds(_ batch: Int) -> Bool { firstBatch <= batch && lastBatch.map { batch <= $0 } ?? true }
    }

    /// A sharded run's entries are keyed: each outcome carries its index on its line.
    let isSharded: Bool
    /// Told when a completed entry could not be written (the run goes on; docs/inputs.md: never silent).
    let warn: @Sendable (String) -> Void
    private var entries: [PendingEntry] = []

    /// No entries yet; keyed ones when `isSharded`.
    init(isSharded: Bool, warn: @escaping @Sendable (String) -> Void) {
        self.isSharded = isSharded
        self.warn = warn
    }

    /// Starts the entry of the file whose first batch is `firstBatch`.
    mutating func begin(_ writer: VerifiedStoreWriter, firstBatch: Int) {
        entries.append(PendingEntry(writer: writer, firstBatch: firstBatch))
    }

    /// Hands batch `sequence`'s outcomes, just consumed, to its file's entry; completes what that finished.
    mutating func record(_ verified: VerifiedBatch, sequence: Int) {
        guard let index = entries.firstIndex(where: { $0.holds(sequence) }) else { return }
        entries[index].writer.append(verified.outcomes, orderIndexes: isSharded ? verified.orderIndexes : nil)
        complete(consumedThrough: sequence)
    }

    /// The last started entry's file is read: its batches end at `lastBatch`, and it is named from `stats`.
    mutating func fileRead(_ stats: InputStats, lastBatch: Int, store: VerifiedStore, consumedThrough: Int) {
        guard let index = entries.indices.last else { return }
        entries[index].lastBatch = lastBatch
        entries[index].name = store.name(path: stats.path, size: stats.bytes, sha256: stats.sha256)
        entries[index].key = store.key(path: stats.path, size: stats.bytes, sha256: stats.sha256)
        entries[index].path = stats.path
        complete(consumedThrough: consumedThrough)
    }

    /// Completes, in order, the entries whose files are read and whose batches are consumed through `consumedThrough`.
    mutating func complete(consumedThrough: Int) {
        while let first = entries.first, let last = first.lastBatch, let name = first.name, let key = first.key,
            let path = first.path, last <= consumedThrough
        {
            if let warning = first.writer.finish(name: name, key: key, path: path) { warn(warning) }
            entries.removeFirst()
        }
    }

    /// Drops every entry not completed (their temporary files are removed).
    mutating func abandonAll() {
        for entry in entries { entry.writer.abandon() }
        entries.removeAll()
    }
}
