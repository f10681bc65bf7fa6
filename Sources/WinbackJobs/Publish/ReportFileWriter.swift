import Crypto
import Foundation
import WinbackCore
import WinbackIO

/// Streams text lines into a gzip file through zlib, counting rows and hashing the compressed bytes.
/// Memory holds one compressed chunk, never the whole file.
final class ReportFileWriter {
    private let handle: FileHandle
    private let path: String
    private var gzip: GzipWriter?
    private var hasher = SHA256()
    private var byteCount = 0
    private var pending: [UInt8] = []
    private(set) var rows = 0
    let schema: ReportSchema

    /// Creates `directory/schema.name`; for CSV files the header is written first (not counted as a row).
    init(directory: String, schema: ReportSchema, isCSV: Bool) throws(JobError) {
        path = directory + "/" + schema.name
        self.schema = schema
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw .io(IOError(path: path, reason: "cannot create file"))
        }
        self.handle = handle
        do {
            gzip = try GzipWriter(level: Self.gzipLevel(schema)) { [unowned self] chunk in
                self.hasher.update(data: chunk)
                self.byteCount += chunk.count
                try self.handle.write(contentsOf: chunk)
            }
            if isCSV { try gzip?.write(schema.header) }
        } catch {
            throw .io(IOError(path: path, reason: "\(error)"))
        }
    }

    /// The zlib level of a report, chosen by measurement on the sample and scale datasets (level 6 as the
    /// baseline): the two large files, which are most of the deflate CPU of a nightly run, a step lower
    /// than size alone would pick, because CPU per record is what the nightly budget is measured in —
    /// `subscriptions.csv.gz` at 4 (10 % larger than at 6 for 46 % less deflate CPU; 5 was 2 % larger for
    /// 27 % less) and `offers.ndjson.gz` at 3 (7 % larger for 43 % less: signatures and nonces do not
    /// compress, and levels 1–3 find nearly as much in the rest); `eligible_accounts.csv.gz` at 5. The
    /// small files stay at 6.
    static func gzipLevel(_ schema: ReportSchema) -> Int32 {
        switch schema.name {
        case ReportSchema.offers.name: 3
        case ReportSchema.subscriptions.name: 4
        case ReportSchema.eligibleAccounts.name: 5
        default: 6
        }
    }

    /// Appends one row or line (with its trailing newline).
    func write(line: String) throws(JobError) {
        pending.append(contentsOf: line.utf8)
        try rowAppended()
    }

    /// Appends a CSV row (encoded straight into the bytes to compress).
    func write(row: [String?]) throws(JobError) {
        CSVFormat.append(row, to: &pending)
        try rowAppended()
    }

    /// Appends a CSV line that `appendLine` writes into the pending bytes itself (with its newline).
    func write(appendingLine appendLine: (inout [UInt8]) -> Void) throws(JobError) {
        appendLine(&pending)
        try rowAppended()
    }

    /// Counts the row just appended to ``pending`` and compresses the pending bytes once there are 64 KiB.
    private func rowAppended() throws(JobError) {
        rows += 1
        if pending.count >= 1 << 16 { try flushPending() }
    }

    private func flushPending() throws(JobError) {
        do {
            try gzip?.write(pending)
        } catch {
            throw .io(IOError(path: path, reason: "\(error)"))
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Ends the gzip stream, syncs and closes the file.
    func finish() throws(JobError) -> OutputStats {
        try flushPending()
        do {
            try gzip?.finish()
            try handle.synchronize()
            try handle.close()
        } catch {
            throw .io(IOError(path: path, reason: "\(error)"))
        }
        gzip = nil
        let digest = HexDigest.string(hasher.finalize())
        return OutputStats(name: schema.name, rows: rows, bytes: byteCount, sha256: digest, schema: schema)
    }
}
