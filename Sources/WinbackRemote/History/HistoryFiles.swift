import Crypto
import Foundation
import WinbackAppStore
import WinbackIO
import WinbackJobs

/// Where `winback sync --history/--statuses` writes (docs/sync.md), under `<api.directory>`:
/// `history/<id-shard>/<id>.ndjson.gz` (then `<id>.2.ndjson.gz`, `<id>.3.ndjson.gz`, … for what came later)
/// and `statuses/<id-shard>/<id>.json.gz`, where `<id-shard>` is the first two lower-case hex digits of the
/// SHA-256 of the id's decimal string (256 folders).
struct HistoryFiles: Sendable {
    /// `<api.directory>`, resolved.
    let root: String

    /// `<root>/history`.
    var historyDirectory: String { root + "/history" }
    /// `<root>/statuses`.
    var statusesDirectory: String { root + "/statuses" }

    /// The two-hex-digit folder of `id`.
    static func shard(of id: String) -> String {
        String(HexDigest.string(SHA256.hash(data: Array(id.utf8))).prefix(2))
    }

    /// History part `number` (1, 2, …) of `id`.
    func historyPart(_ number: Int, of id: String) -> String {
        historyDirectory + "/" + Self.shard(of: id) + "/" + id + (number == 1 ? "" : ".\(number)") + ".ndjson.gz"
    }

    /// The statuses file of `id`.
    func statuses(of id: String) -> String {
        statusesDirectory + "/" + Self.shard(of: id) + "/" + id + ".json.gz"
    }

    /// Removes the temporary files a killed sync left in the id folders (`.<name>.<pid>.tmp`; the lock is
    /// held, so none is being written).
    func removeLeftovers() {
        for directory in [historyDirectory, statusesDirectory] {
            for shard in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where shard.count == 2 {
                let folder = directory + "/" + shard
                for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                where name.hasPrefix(".") && name.hasSuffix(".tmp") {
                    try? FileManager.default.removeItem(atPath: folder + "/" + name)
                }
            }
        }
    }

    /// The history parts of `id` on disk, in order (1, 2, … while they exist).
    func existingParts(of id: String) -> [String] {
        var parts: [String] = []
        while FileManager.default.fileExists(atPath: historyPart(parts.count + 1, of: id)) {
            parts.append(historyPart(parts.count + 1, of: id))
        }
        return parts
    }

    /// Every `signedTransactionInfo` in `parts`: what is already written, never to be written again.
    static func writtenTransactions(in parts: [String]) throws(JobError) -> Set<String> {
        var written = Set<String>()
        for part in parts {
            try GzipLines.forEach(part) { line, number throws(JobError) in
                guard case .string(let jws)? = try? JSONParser.parse(Array(line))["signedTransactionInfo"] else {
                    throw .io(IOError(path: part, reason: "line \(number) is not a {\"signedTransactionInfo\": …} line (damaged?)"))
                }
                written.insert(jws)
            }
        }
        return written
    }

    /// The gzip NDJSON of a history part: one `{"signedTransactionInfo":"…"}` line per transaction.
    static func historyPart(_ transactions: [String], path: String) throws(JobError) -> [UInt8] {
        try SyncSetup.lines(member: "signedTransactionInfo", transactions, path: path)
    }
}
