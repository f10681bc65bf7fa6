import Foundation
import WinbackIO

/// An input file the verified store holds (docs/verified-store.md): its outcomes are replayed from the
/// entry instead of verified again.
struct StoreReplay {
    /// The file as read now: path, size, SHA-256.
    let stats: InputStats
    private let entry: Data
    private let isKeyed: Bool

    /// The replay of `file` when `store` holds its entry: same path, size and SHA-256, an entry that reads
    /// back whole with the key it should carry. `nil` when the file must be verified (`warn` hears why a
    /// damaged entry was not used).
    init?(_ file: InputFile, store: VerifiedStore, warn: (String) -> Void) {
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
        stats = InputStats(path: file.relativePath, bytes: size, sha256: sha256)
        self.entry = entry
        isKeyed = store.isKeyed
    }

    /// Hands every outcome of the entry to `consume`, in input order, with its index on its line in a keyed
    /// (shard's) entry (0 otherwise), interning through `compactor`.
    func replay(compactor: PayloadCompactor, progress: PhaseProgress?, consume: (RecordOutcome, Int) throws -> Void) throws {
        try entry.withUnsafeBytes { bytes in
            var replayed = 0
            func each(_ outcome: RecordOutcome, index: Int) throws {
                try consume(outcome, index)
                replayed += 1
                if replayed % 65_536 == 0 { progress?.advance(by: 65_536) }
            }
            if isKeyed {
                try StoreEntryDecoder.decodeKeyed(bytes, source: stats.path, compactor: compactor) { try each($1, index: $0.index) }
            } else {
                try StoreEntryDecoder.decode(bytes, source: stats.path, compactor: compactor) { try each($0, index: 0) }
            }
            progress?.advance(by: replayed % 65_536)
        }
    }
}
