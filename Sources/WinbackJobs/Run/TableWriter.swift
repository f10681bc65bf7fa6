import WinbackAnalytics
import WinbackCore
import WinbackIO

/// A report table being written from its typed rows: its gzip CSV and, when `report.formats` asks for Parquet,
/// its Parquet twin, each rendered from the row's values (``TableRow/write(to:)``; docs/analysts.md).
struct TableWriter {
    /// The CSV file.
    private let csv: ReportFileWriter
    private let parquet: ParquetTableFile?

    /// Creates `<table>.csv.gz` (and `<table>.parquet` when `formats` holds `parquet`) in `directory`;
    /// `expectedRows`, when known, sizes the Parquet columns once.
    init(_ schema: ReportSchema, directory: String, formats: Set<ReportSettings.TableFormat>, expectedRows: Int? = nil) throws {
        csv = try ReportFileWriter(directory: directory, schema: schema, isCSV: true)
        parquet = formats.contains(.parquet) ? try ParquetTableFile(schema: schema, directory: directory, expectedRows: expectedRows) : nil
    }

    /// Writes `row` to both files.
    func write(_ row: some TableRow) throws {
        try csv.write { CSVRowFields.append(row, to: &$0) }
        try parquet?.append(row)
    }

    /// Writes every row of `rows`.
    func write(_ rows: some Sequence<some TableRow>) throws {
        for row in rows { try write(row) }
    }

    /// Ends both files; their stats, the CSV's first (the order of the manifest).
    func finish() throws -> [OutputStats] {
        let table = try csv.finish()
        guard let parquet else { return [table] }
        return [table, try parquet.finish()]
    }
}
