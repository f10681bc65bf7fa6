import Crypto
import Foundation
import SwiftASN1
import Synchronization
import WinbackCore
import WinbackIO
import WinbackIngest
import X509

/// The verified store (SPEC §14): per input file, the outcome of verifying it, so an unchanged file is
/// never verified twice. An entry is one file `<path hash>-<size>-<file SHA-256>-<verifier digest>.wbs` in
/// ``directory`` (format: ``StoreEntryEncoder``), written to a temporary file and renamed when the input
/// file is done. Its name is its key: the input's config-relative path, size and SHA-256, and the verifier
/// digest (trusted roots, app identity, `acceptUnsignedPayloads`, `maxLineBytes`, the entry format).
///
/// The store is trusted local state, like the ledger: whoever can write it can change what a run reads.
public final class VerifiedStore: Sendable {
    /// Where the entries are.
    public let directory: String
    /// The hex SHA-256 of everything that decides a file's outcomes besides the file itself.
    public let verifierDigest: String
    /// A shard's store (SPEC §16): its entries are keyed (``StoreEntryEncoder/init(keyed:)``).
    public let isKeyed: Bool
    /// Entry names present when the run started.
    private let existing: Set<String>
    /// Entry names this run read or wrote (kept by ``prune()``).
    private let kept = Mutex<Set<String>>([])

    /// Opens (creating it) the store at `directory` for a run whose verifier digest is `verifierDigest`.
    public init(directory: String, verifierDigest: String, isKeyed: Bool = false) throws(JobError) {
        self.directory = directory
        self.verifierDigest = verifierDigest
        self.isKeyed = isKeyed
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            existing = Set(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".wbs") })
        } catch {
            throw .io(IOError(path: directory, reason: "cannot open the verified store (\(error.localizedDescription))"))
        }
    }

    /// The verifier digest of `loaded`: its trusted roots (DER), app identity, `acceptUnsignedPayloads`,
    /// `report.maxLineBytes`, the entry format version and, for a shard, `i/N` (SPEC §16: a shard's entry
    /// never serves a run with another sharding).
    public static func verifierDigest(_ loaded: LoadedConfig, shard: ShardSpec? = nil) -> String {
        var hasher = SHA256()
        func add(_ text: String) {
            hasher.update(data: Array(text.utf8) + [0])
        }
        add("winback verified store, entry format \(StoreEntryEncoder.formatVersion)")
        if let shard { add("shard \(shard)") }
        for root in loaded.roots {
            var serializer = DER.Serializer()
            if (try? serializer.serialize(root)) != nil { hasher.update(data: serializer.serializedBytes) }
            add("")
        }
        let config = loaded.config
        add(config.app.bundleId)
        add(config.app.appAppleId.map(String.init) ?? "")
        add(config.app.environment)
        add(config.acceptUnsignedPayloads ? "unsigned accepted" : "signed only")
        add(String(config.report.maxLineBytes))
        return HexDigest.string(hasher.finalize())
    }

    private static func pathHash(_ path: String) -> String { String(HexDigest.string(SHA256.hash(data: Array(path.utf8))).prefix(16)) }

    /// The entry name of `path` with `size` bytes and SHA-256 `sha256`.
    public func name(path: String, size: Int, sha256: String) -> String {
        "\(Self.pathHash(path))-\(size)-\(sha256)-\(verifierDigest.prefix(16)).wbs"
    }

    /// Whether some entry could belong to `path` with `size` bytes (its SHA-256 is then worth computing).
    func mayHold(path: String, size: Int) -> Bool {
        let prefix = "\(Self.pathHash(path))-\(size)-"
        let suffix = "-\(verifierDigest.prefix(16)).wbs"
        return existing.contains { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }
    }

    /// The checked bytes of entry `name`, or `nil` when there is none; a damaged entry is `warn`ed about and
    /// deleted (the file is then verified again).
    func read(_ name: String, warn: (String) -> Void) -> Data? {
        guard existing.contains(name) else { return nil }
        let path = directory + "/" + name
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
            try data.withUnsafeBytes { try StoreEntryDecoder.check($0, keyed: isKeyed) }
            remember(name)
            return data
        } catch {
            warn("verified store: \(path): \(error); verifying the file again")
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
    }

    /// A writer for a new entry, in a temporary file of the store.
    func writer() -> VerifiedStoreWriter? {
        let temporary = directory + "/.incoming-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: temporary, contents: nil), let handle = FileHandle(forWritingAtPath: temporary) else {
            return nil
        }
        return VerifiedStoreWriter(store: self, temporary: temporary, handle: handle, isKeyed: isKeyed)
    }

    func remember(_ name: String) {
        _ = kept.withLock { $0.insert(name) }
    }

    /// Deletes the entries this run neither read nor wrote (files no longer matched, changed, or of another
    /// verifier digest) and temporary files of interrupted runs. Call after a successful run.
    public func prune() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let keep = kept.withLock { $0 }
        for name in names where (name.hasSuffix(".wbs") && !keep.contains(name)) || name.hasPrefix(".incoming-") {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }
}

/// One entry being written: outcomes appended as the input file's batches are consumed, renamed into
/// place by ``finish(name:)`` once the file is done. Any write failure abandons the entry (the run goes on).
final class VerifiedStoreWriter {
    private let store: VerifiedStore
    private let temporary: String
    private let handle: FileHandle
    private var encoder: StoreEntryEncoder
    private var failed = false

    init(store: VerifiedStore, temporary: String, handle: FileHandle, isKeyed: Bool) {
        self.store = store
        self.temporary = temporary
        self.handle = handle
        encoder = StoreEntryEncoder(keyed: isKeyed)
    }

    /// Appends `outcomes` (of this entry's file, in order), with their records' indexes on their lines in a keyed entry.
    func append(_ outcomes: [RecordOutcome], orderIndexes: [Int]?) {
        guard !failed else { return }
        if let orderIndexes {
            for (outcome, index) in zip(outcomes, orderIndexes) { encoder.append(outcome, orderIndex: index) }
        } else {
            for outcome in outcomes { encoder.append(outcome) }
        }
        write(encoder.takeBytes())
    }

    private func write(_ bytes: [UInt8]) {
        guard !failed, !bytes.isEmpty else { return }
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            failed = true
        }
    }

    /// Completes the entry and renames it to `name`; abandons it after a failed write.
    func finish(name: String) {
        write(encoder.finish())
        if !failed, (try? handle.synchronize()) == nil { failed = true }
        try? handle.close()
        guard !failed, rename(temporary, store.directory + "/" + name) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            return
        }
        store.remember(name)
    }

    /// Drops the entry (the file could not be read to its end).
    func abandon() {
        try? handle.close()
        try? FileManager.default.removeItem(atPath: temporary)
    }
}
