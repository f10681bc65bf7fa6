import Crypto
import Foundation
import Synchronization
import WinbackAnalytics
import WinbackIO
import WinbackParquet

/// One table's `<table>.parquet` (docs/analysts.md), written from its typed rows (``TableRow/write(to:)`` into
/// ``ParquetRowFields``) and typed by the manifest's column types, so it holds the same rows as its CSV. The
/// writer is behind a lock taken once per row: the subscriptions' file is written by a child task
/// (``RunJob/besideSubscriptionsParquet(_:_:outputs:_:)``).
final class ParquetTableFile: Sendable {
    /// The CSV table's schema (`<table>.csv.gz`).
    let schema: ReportSchema
    /// The Parquet file's name, `<table>.parquet`.
    let name: String
    private let path: String
    private let handle: FileHandle
    private let writer: Mutex<ParquetWriter>
    /// The SHA-256 of the bytes written so far, for the manifest (fed by the writer's sink).
    private let hashing: Shared<SHA256>

    /// Creates `directory/<table>.parquet` for the CSV table `schema`, of about `expectedRows` rows when the caller
    /// knows (the column buffers are then sized once).
    init(schema: ReportSchema, directory: String, expectedRows: Int? = nil) throws(JobError) {
        self.schema = schema
        name = String(schema.name.dropLast(".csv.gz".count)) + ".parquet"
        path = directory + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw JobError.io(IOError(path: path, reason: "cannot create file"))
        }
        self.handle = handle
        let hashing = Shared(SHA256())
        do {
            writer = Mutex(
                try ParquetWriter(
                    columns: schema.columns.map { .init(name: $0.name, type: ParquetTables.parquetType($0.type)) },
                    compressionLevel: schema.gzipLevel, expectedRows: expectedRows
                ) { bytes in
                    hashing.withLock { $0.update(data: bytes) }
                    try handle.write(contentsOf: bytes)
                })
        } catch {
            throw JobError.io(IOError(path: path, reason: "\(error)"))
        }
        self.hashing = hashing
    }

    /// Appends `row`.
    func append(_ row: some TableRow) throws(JobError) {
        try writer.withLock { writer throws(JobError) in
            var fields = ParquetRowFields(writer: writer)
            row.write(to: &fields)
            try endRow(writer)
        }
    }

    private func endRow(_ writer: ParquetWriter) throws(JobError) {
        do {
            try writer.endRow()
        } catch let failure as ParquetWriter.Failure {
            // A row whose values do not fit the schema is a defect of the table's definition, not of the data.
            throw JobError.internalError("\(name) row \(writer.rows + 1): \(failure.description)")
        } catch {
            throw JobError.io(IOError(path: path, reason: "\(error)"))
        }
    }

    /// Ends the file (footer, sync, close); its stats for the manifest.
    func finish() throws(JobError) -> OutputStats {
        do {
            let (bytes, rows) = try writer.withLock { writer in (try writer.finish(), writer.rows) }
            try handle.synchronize()
            try handle.close()
            return OutputStats(
                name: name, rows: rows, bytes: bytes, sha256: HexDigest.string(hashing.withLock { $0.finalize() }),
                schema: ReportSchema(name: name, columns: schema.columns.map { ($0.name, $0.type) }))
        } catch {
            throw JobError.io(IOError(path: path, reason: "\(error)"))
        }
    }
}
