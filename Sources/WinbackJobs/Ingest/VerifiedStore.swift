import Crypto
import Foundation
import SwiftASN1
import Synchronization
import WinbackCore
import WinbackIO
import WinbackIngest
import X509

/// The verified store (docs/verified-store.md): per input file, the outcome of verifying it, so an unchanged file is
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
    /// A shard's store (docs/sharding.md): its entries are keyed (``StoreEntryEncoder/init(keyed:)``).
    public let isKeyed: Bool
    /// Entry names present when the run started.
    private let existing: Set<String>
    /// Entry names this run read or wrote (kept by ``prune()``).
    private let kept = Mutex<Set<String>>([])
    /// Why entries of this run could not be written, by input path (docs/inputs.md: never silent).
    private let failures = Mutex<[String: String]>([:])

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
    /// `report.maxLineBytes`, the entry format version and, for a shard, `i/N` (docs/sharding.md: a shard's entry
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

    /// The key entry `name` carries inside its checksummed content (``StoreEntryEncoder/key(path:size:sha256:verifierDigest:)``).
    public func key(path: String, size: Int, sha256: String) -> String {
        StoreEntryEncoder.key(path: path, size: size, sha256: sha256, verifierDigest: verifierDigest)
    }

    /// Why the entry of input `path` could not be written in this run, if it could not.
    public func writeFailure(path: String) -> String? {
        failures.withLock { $0[path] }
    }

    /// Records that the entry of `path` was not written, and returns the warning to give: the first failure
    /// of each reason names the file; later ones with the same reason are only counted (see ``failureSummary()``).
    func recordFailure(path: String, reason: String) -> String? {
        failures.withLock { failures in
            let isNew = !failures.values.contains(reason)
            failures[path] = reason
            return isNew
                ? "verified store \(directory): the entry of \(path) was not written (\(reason)); the file will be verified "
                    + "again next time" : nil
        }
    }

    /// A warning counting the entries whose failure was not named one by one, or `nil`.
    public func failureSummary() -> String? {
        failures.withLock { failures in
            let reasons = Set(failures.values)
            let unnamed = failures.count - reasons.count
            return unnamed > 0 ? "verified store \(directory): \(unnamed) more entr\(unnamed == 1 ? "y" : "ies") not written" : nil
        }
    }

    /// Whether some entry could belong to `path` with `size` bytes (its SHA-256 is then worth computing).
    func mayHold(path: String, size: Int) -> Bool {
        let prefix = "\(Self.pathHash(path))-\(size)-"
        let suffix = "-\(verifierDigest.prefix(16)).wbs"
        return existing.contains { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }
    }

    /// The checked bytes of entry `name`, or `nil` when there is none; a damaged entry is `warn`ed about and
    /// deleted (the file is then verified again).
    func read(_ name: String, key: String, warn: (String) -> Void) -> Data? {
        guard existing.contains(name) else { return nil }
        let path = directory + "/" + name
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
            try data.withUnsafeBytes { try StoreEntryDecoder.check($0, keyed: isKeyed, key: key) }
            remember(name)
            return data
        } catch {
            warn("verified store: \(path): \(error); verifying the file again")
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
    }

    /// A writer for a new entry, in a temporary file of the store (one that fails at once when the file
    /// cannot be created: its ``VerifiedStoreWriter/finish(name:key:)`` says why).
    func writer() -> VerifiedStoreWriter {
        let temporary = directory + "/.incoming-\(UUID().uuidString)"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = "cannot create a file in it: \(String(cString: strerror(errno)))"
            return VerifiedStoreWriter(store: self, temporary: temporary, handle: nil, isKeyed: isKeyed, failure: reason)
        }
        return VerifiedStoreWriter(
            store: self, temporary: temporary, handle: FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), isKeyed: isKeyed)
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
