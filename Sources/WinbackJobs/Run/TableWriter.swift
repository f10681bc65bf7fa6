import WinbackAnalytics
import WinbackCore
import WinbackIO

/// A report table being written: its gzip CSV and, when `report.formats` asks for Parquet, its Parquet twin
/// fed the same rows as they are written (``ParquetTwin``; docs/analysts.md).
struct TableWriter {
    /// The CSV file; rows go here.
    let csv: ReportFileWriter
    private let twin: ParquetTwin?

    /// Creates `<table>.csv.gz` (and `<table>.parquet` when `formats` holds `parquet`) in `directory`;
    /// `expectedRows`, when known, sizes the twin's buffers once.
    init(_ schema: ReportSchema, directory: String, formats: Set<ReportSettings.TableFormat>, expectedRows: Int? = nil) throws {
        csv = try ReportFileWriter(directory: directory, schema: schema, isCSV: true)
        twin = formats.contains(.parquet) ? try ParquetTwin(schema: schema, directory: directory, expectedRows: expectedRows) : nil
        if let twin { csv.onRows = { twin.consume($0) } }
    }

    /// Ends both files; their stats, the CSV's first (the order of the manifest).
    func finish() throws -> [OutputStats] {
        let table = try csv.finish()
        guard let twin else { return [table] }
        return [table, try twin.finish()]
    }
}
