import Crypto
import Foundation
import WinbackAnalytics

/// Streams text lines into a gzip file through zlib, counting rows and hashing the compressed bytes.
/// Memory holds one compressed chunk, never the whole file.
public final class ReportFileWriter {
    private let handle: FileHandle
    private let path: String
    private var gzip: GzipWriter?
    private var hasher = SHA256()
    private var byteCount = 0
    private var pending: [UInt8] = []
    /// Data rows (or lines) written so far.
    public private(set) var rows = 0
    /// The file's name and columns.
    public let schema: ReportSchema

    /// Creates `directory/schema.name`; for CSV files the header is written first (not counted as a row). The zlib
    /// `level` is the report's (``ReportSchema/gzipLevel``) unless given.
    public init(directory: String, schema: ReportSchema, isCSV: Bool, level: Int32? = nil) throws(IOError) {
        path = directory + "/" + schema.name
        self.schema = schema
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw IOError(path: path, reason: "cannot create file")
        }
        self.handle = handle
        do {
            gzip = try GzipWriter(level: level ?? schema.gzipLevel) { [unowned self] chunk in
                self.hasher.update(data: chunk)
                self.byteCount += chunk.count
                try self.handle.write(contentsOf: chunk)
            }
            if isCSV { try gzip?.write(schema.header) }
        } catch {
            throw IOError(path: path, reason: "\(error)")
        }
    }

    /// Appends one row or line (with its trailing newline).
    public func write(line: String) throws(IOError) {
        pending.append(contentsOf: line.utf8)
        try rowAppended()
    }

    /// Appends a table row's CSV line, rendered from its values straight into the bytes to compress.
    public func write(_ row: some TableRow) throws(IOError) {
        CSVRowFields.append(row, to: &pending)
        try rowAppended()
    }

    /// Appends a CSV line that `appendLine` writes into the pending bytes itself (with its newline).
    public func write(appendingLine appendLine: (inout [UInt8]) -> Void) throws(IOError) {
        appendLine(&pending)
        try rowAppended()
    }

    /// Counts the row just appended to ``pending`` and compresses the pending bytes once there are 64 KiB.
    private func rowAppended() throws(IOError) {
        rows += 1
        if pending.count >= 1 << 16 { try flushPending() }
    }

    private func flushPending() throws(IOError) {
        do {
            try gzip?.write(pending)
        } catch {
            throw IOError(path: path, reason: "\(error)")
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Ends the gzip stream, syncs and closes the file.
    public func finish() throws(IOError) -> OutputStats {
        try flushPending()
        do {
            try gzip?.finish()
            try handle.synchronize()
            try handle.close()
        } catch {
            throw IOError(path: path, reason: "\(error)")
        }
        gzip = nil
        let digest = HexDigest.string(hasher.finalize())
        return OutputStats(name: schema.name, rows: rows, bytes: byteCount, sha256: digest, schema: schema)
    }
}
