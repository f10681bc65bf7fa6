import Crypto
import Foundation
import WinbackAnalytics
import WinbackIO
import WinbackParquet

/// One table's `<table>.parquet` being written from its CSV rows, typed by the manifest's column types
/// (``ParquetTables/appendColumn(_:column:rows:as:to:)``), so the Parquet file equals its CSV row for row.
/// Rows come in as chunks of CSV rows (``append(csvRows:)``), straight from the CSV writer's bytes
/// (``ParquetTwin``), or from a published CSV (`winback bench --parquet`). Not thread-safe: one caller at a time.
public final class ParquetConversion {
    /// The CSV table's schema.
    public let schema: ReportSchema
    /// The Parquet file's name, `<table>.parquet`.
    public let name: String
    private let path: String
    private let handle: FileHandle
    private let writer: ParquetWriter
    /// The SHA-256 of the bytes written so far, for the manifest (fed by the writer's sink, so behind a lock).
    private let hashing: Shared<SHA256>
    private var rowNumber = 0
    /// The fields of the rows being appended (reused chunk after chunk).
    private var chunk: CSVChunk

    /// Creates `directory/<table>.parquet` for the CSV table `schema` (`<table>.csv.gz`), of about `expectedRows`
    /// rows when the caller knows (``ParquetWriter/init(columns:rowGroupRows:compressionLevel:deflater:expectedRows:sink:)``).
    public init(schema: ReportSchema, directory: String, expectedRows: Int? = nil) throws(JobError) {
        self.schema = schema
        name = String(schema.name.dropLast(".csv.gz".count)) + ".parquet"
        path = directory + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw JobError.io(IOError(path: path, reason: "cannot create file"))
        }
        self.handle = handle
        let hashing = Shared(SHA256())
        do {
            writer = try ParquetWriter(
                columns: schema.columns.map { .init(name: $0.name, type: ParquetTables.parquetType($0.type)) },
                compressionLevel: ReportFileWriter.gzipLevel(schema), expectedRows: expectedRows
            ) { bytes in
                hashing.withLock { $0.update(data: bytes) }
                try handle.write(contentsOf: bytes)
            }
        } catch {
            throw JobError.io(IOError(path: path, reason: "\(error)"))
        }
        self.hashing = hashing
        chunk = CSVChunk(columns: schema.columns.count)
    }

    /// Appends `rows`: whole CSV rows (no header), each ending in a newline.
    public func append(csvRows rows: [UInt8]) throws(JobError) {
        let columns = schema.columns
        do {
            try chunk.split(rows)
        } catch {
            throw JobError.internalError("\(schema.name) row \(rowNumber + error.row): \(error.reason)")
        }
        do {
            try chunk.withFields { fields in
                try writer.appendRows(chunk.rows) { column, rows, values in
                    try ParquetTables.appendColumn(fields, column: column, rows: rows, as: columns[column].type, to: &values)
                }
            }
        } catch let error as ParquetTables.CellError {
            throw JobError.internalError("\(schema.name) row \(rowNumber + error.row + 1): '\(error.text)' is not a \(error.type)")
        } catch {
            throw JobError.io(IOError(path: path, reason: "\(error)"))
        }
        rowNumber += chunk.rows
    }

    /// Ends the file (footer, sync, close); its stats for the manifest.
    public func finish() throws(JobError) -> OutputStats {
        do {
            let bytes = try writer.finish()
            try handle.synchronize()
            try handle.close()
            return OutputStats(
                name: name, rows: writer.rows, bytes: bytes, sha256: HexDigest.string(hashing.withLock { $0.finalize() }),
                schema: ReportSchema(name: name, columns: schema.columns.map { ($0.name, $0.type) }))
        } catch {
            throw JobError.io(IOError(path: path, reason: "\(error)"))
        }
    }
}
