import Crypto
import Foundation
import SwiftASN1
import Synchronization
import WinbackAnalytics
import WinbackIO
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
    public init(directory: String, verifierDigest: String, isKeyed: Bool = false) throws(IOError) {
        self.directory = directory
        self.verifierDigest = verifierDigest
        self.isKeyed = isKeyed
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            existing = Set(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".wbs") })
        } catch {
            throw IOError(path: directory, reason: "cannot open the verified store (\(error.localizedDescription))")
        }
    }

    /// The verifier digest of `settings`: its trusted roots (DER), app identity, `acceptUnsignedPayloads`,
    /// `report.maxLineBytes`, the entry format version and, for a shard, `i/N` (docs/sharding.md: a shard's entry
    /// never serves a run with another sharding).
    public static func verifierDigest(_ settings: IngestSettings, shard: ShardSpec? = nil) -> String {
        var hasher = SHA256()
        func add(_ text: String) {
            hasher.update(data: Array(text.utf8) + [0])
        }
        add("winback verified store, entry format \(StoreEntryEncoder.formatVersion)")
        // Rule 2: a notification's nested renewal info is kept by its own owner's shard (ShardRule).
        if let shard { add("shard \(shard), shard rule 2") }
        for root in settings.roots {
            var serializer = DER.Serializer()
            if (try? serializer.serialize(root)) != nil { hasher.update(data: serializer.serializedBytes) }
            add("")
        }
        add(settings.app.bundleId)
        add(settings.app.appAppleId.map(String.init) ?? "")
        add(settings.app.environment)
        add(settings.acceptUnsignedPayloads ? "unsigned accepted" : "signed only")
        add(String(settings.maximumLineBytes))
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
