import Foundation
import GRDB
import WinbackIO

/// The offer ledger (docs/campaigns.md): an SQLite database of runs and selected accounts, created on first use and
/// migrated by schema version. Unique per (campaign, account key, as-of). A day's selections are written in
/// one transaction, so a crash never leaves half a day; a re-run of the day reads them back instead of
/// selecting and signing again.
///
/// One run at a time uses a ledger: it holds `<ledger>.lock` (an OS lock that dies with the process) while
/// the ledger is open, so two runs of one day with different `--out` sharing a ledger cannot interleave
/// (the second exits 75 naming the ledger). An empty ledger file is refused (74): a ledger is created whole
/// (``create(_:)``), so an empty one was truncated.
///
/// One database, a file per table family: the schema (`+Schema`), runs, selections, code pools, webhook
/// deliveries and outcome cohorts.
public final class OfferLedger {
    let queue: DatabaseQueue
    private let lock: RunLock
    /// The SQLite file.
    public let path: String

    /// Opens (and creates or migrates) the ledger at `path`, holding its lock (``JobError/locked`` when another run has it).
    public init(path: String, startedAt: String = "") throws(JobError) {
        self.path = path
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        } catch {
            throw .io(IOError(path: path, reason: "cannot create the ledger's directory (\(error.localizedDescription))"))
        }
        do {
            lock = try RunLock(path: path + ".lock", guarding: "the ledger \(path)", startedAt: startedAt)
        } catch {
            throw JobError(error)
        }
        if !FileManager.default.fileExists(atPath: path) { try Self.create(path) }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size == 0 {
            throw .io(
                IOError(
                    path: path, reason: "the offer ledger is an empty file (damaged or truncated): restore it from a backup or remove it"))
        }
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            // 16 KiB pages for a new ledger (no effect on an existing one): a selection is ~1.3 KB, so 4 KiB
            // pages held two and left a quarter empty (a larger file and more CPU; docs/performance.md).
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA page_size = \(OfferLedger.pageSize)") }
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try Self.migrator.migrate(queue)
        } catch {
            throw .io(IOError(path: path, reason: "cannot open the offer ledger (\(error))"))
        }
    }

    /// Creates a new ledger whole: built and migrated beside `path`, then renamed into place, so a run killed
    /// while creating it leaves no ledger or a complete one — never the empty file that SQLite's own creation
    /// would leave, and that ``init(path:startedAt:)`` refuses as a truncated ledger.
    private static func create(_ path: String) throws(JobError) {
        let temporary = (path as NSString).deletingLastPathComponent + "/." + (path as NSString).lastPathComponent + ".\(getpid()).tmp"
        do {
            unlink(temporary)
            var configuration = Configuration()
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA page_size = \(OfferLedger.pageSize)") }
            let queue = try DatabaseQueue(path: temporary, configuration: configuration)
            try migrator.migrate(queue)
            try queue.close()
        } catch {
            unlink(temporary)
            throw .io(IOError(path: path, reason: "cannot create the offer ledger (\(error))"))
        }
        let descriptor = open(temporary, O_RDONLY)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .io(IOError(path: path, reason: "cannot move the new offer ledger into place (\(reason))"))
        }
    }

    /// Bytes per page of a ledger this type creates.
    static let pageSize = 16384

    /// Runs `body`, turning a damaged row or an SQLite error into 74 naming the ledger.
    func wrap<T>(_ body: () throws -> T) throws(JobError) -> T {
        do {
            return try body()
        } catch let damage as LedgerRow.Damage {
            throw .io(IOError(path: path, reason: "the offer ledger is damaged: \(damage); restore it from a backup"))
        } catch {
            throw .io(IOError(path: path, reason: "offer ledger: \(error)"))
        }
    }

}
