import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One entry being written: outcomes appended as the input file's batches are consumed, renamed into
/// place by ``finish(name:key:)`` once the file is done. A write failure abandons the entry (the run goes
/// on) and ``finish(name:key:)`` says why.
final class VerifiedStoreWriter {
    private let store: VerifiedStore
    private let temporary: String
    private let handle: FileHandle?
    private var encoder: StoreEntryEncoder
    /// Why the entry cannot be written, once something failed.
    private var failure: String?

    init(store: VerifiedStore, temporary: String, handle: FileHandle?, isKeyed: Bool, failure: String? = nil) {
        self.store = store
        self.temporary = temporary
        self.handle = handle
        self.failure = failure
        encoder = StoreEntryEncoder(keyed: isKeyed)
    }

    /// Appends `outcomes` (of this entry's file, in order), with their records' indexes on their lines in a keyed entry.
    func append(_ outcomes: [RecordOutcome], orderIndexes: [Int]?) {
        guard failure == nil else { return }
        if let orderIndexes {
            for (outcome, index) in zip(outcomes, orderIndexes) { encoder.append(outcome, orderIndex: index) }
        } else {
            for outcome in outcomes { encoder.append(outcome) }
        }
        write(encoder.takeBytes())
    }

    private func write(_ bytes: [UInt8]) {
        guard failure == nil, !bytes.isEmpty, let handle else { return }
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            failure = "writing it: \(Self.describe(error))"
        }
    }

    /// Completes the entry of input `path` as `name`, carrying `key`; returns the warning to give when it
    /// could not be written (the store remembers why: ``VerifiedStore/writeFailure(path:)``), else `nil`.
    func finish(name: String, key: String, path: String) -> String? {
        write(encoder.finish(key: key))
        if failure == nil, let handle {
            do {
                try handle.synchronize()
            } catch {
                failure = "syncing it: \(Self.describe(error))"
            }
        }
        try? handle?.close()
        if failure == nil, rename(temporary, store.directory + "/" + name) != 0 {
            failure = "renaming it into place: \(String(cString: strerror(errno)))"
        }
        guard let failure else {
            store.remember(name)
            return nil
        }
        try? FileManager.default.removeItem(atPath: temporary)
        return store.recordFailure(path: path, reason: failure)
    }

    /// Drops the entry (the file could not be read to its end).
    func abandon() {
        try? handle?.close()
        try? FileManager.default.removeItem(atPath: temporary)
    }

    /// An I/O error as the system says it (`No space left on device`), without Foundation's wrapping.
    private static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription
    }
}
