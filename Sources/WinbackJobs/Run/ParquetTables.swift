import Crypto
import Foundation
import WinbackCore
import WinbackIO
import WinbackParquet

/// `report.formats` (SPEC §22): each published CSV table read back and written as `<table>.parquet` beside
/// it, typed by the manifest's column types, so the Parquet file equals its CSV row for row; with `parquet`
/// only, the CSV is removed afterwards. `views.sql` holds a DuckDB view over every night's Parquet files.
enum ParquetTables {
    /// Writes the Parquet twins of the CSV tables among `outputs` into `directory`, and `views.sql` naming
    /// `outputDirectory`; returns the outputs as published (CSV kept or dropped per `formats`).
    static func write(
        _ outputs: [OutputStats], directory: String, outputDirectory: String, formats: Set<ReportSettings.TableFormat>
    ) throws -> [OutputStats] {
        guard formats.contains(.parquet) else { return outputs }
        var published: [OutputStats] = []
        var tables: [String] = []
        for output in outputs {
            guard output.name.hasSuffix(".csv.gz") else {
                published.append(output)
                continue
            }
            if formats.contains(.csv) { published.append(output) }
            let table = String(output.name.dropLast(".csv.gz".count))
            published.append(try convert(output, table: table, directory: directory))
            tables.append(table)
            if !formats.contains(.csv) {
                try? FileManager.default.removeItem(atPath: directory + "/" + output.name)
            }
        }
        published.append(try writeViews(tables, directory: directory, outputDirectory: outputDirectory))
        return published
    }

    /// The Parquet type of a manifest column type.
    static func parquetType(_ type: ColumnType) -> ParquetColumnType {
        switch type {
        case .string, .currency, .month, .stringArray: .string
        case .integer: .int64
        case .rate: .decimal(scale: 6)
        case .money: .decimal(scale: 3)
        case .date: .date
        case .instant: .timestampMillis
        case .boolean: .boolean
        }
    }

    /// A CSV cell as the Parquet value of its column type (`nil` for an empty cell); throws for a cell the
    /// type does not parse, which would be a defect of the writer that made the CSV.
    static func value(_ text: String?, _ type: ColumnType) -> ParquetValue?? {
        guard let text else { return .some(nil) }
        switch type {
        case .string, .currency, .month, .stringArray: return .bytes(Array(text.utf8))
        case .integer, .money: return Int64(text).map { .integer($0) }
        case .rate: return decimal(text, scale: 6).map { .integer($0) }
        case .boolean:
            switch text {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            default: return nil
            }
        case .date:
            guard let (year, month, day) = ReportCalendar.parseDate(text) else { return nil }
            return .integer(InstantFormat.days(year: Int64(year), month: Int64(month), day: Int64(day)))
        case .instant: return instant(text).map { .integer($0) }
        }
    }

    /// `-0.123456` as the integer 123456 with the sign, for `scale` decimals (fewer are padded).
    static func decimal(_ text: String, scale: Int) -> Int64? {
        var digits = Substring(text)
        let isNegative = digits.hasPrefix("-")
        if isNegative { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = Int64(parts[0]) else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.count <= scale, fraction.allSatisfy(\.isASCII),
            let fractional = Int64(fraction + String(repeating: "0", count: scale - fraction.count))
        else { return nil }
        var scaled: Int64 = 1
        for _ in 0..<scale { scaled *= 10 }
        let (product, overflow) = whole.multipliedReportingOverflow(by: scaled)
        guard !overflow else { return nil }
        return isNegative ? -(product + fractional) : product + fractional
    }

    /// `2026-11-19T06:00:00.000Z` as epoch milliseconds.
    static func instant(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[10] == UInt8(ascii: "T"), bytes[23] == UInt8(ascii: "Z"),
            let (year, month, day) = ReportCalendar.parseDate(String(decoding: bytes[0..<10], as: UTF8.self))
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? { Int64(String(decoding: bytes[range], as: UTF8.self)) }
        guard let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19), let millisecond = number(20..<23)
        else {
            return nil
        }
        let days = InstantFormat.days(year: Int64(year), month: Int64(month), day: Int64(day))
        return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
    }

    /// Reads `output`'s CSV and writes `<table>.parquet`.
    private static func convert(_ output: OutputStats, table: String, directory: String) throws -> OutputStats {
        let csvPath = directory + "/" + output.name
        let name = table + ".parquet"
        let path = directory + "/" + name
        let columns = output.schema.columns
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw JobError.io(IOError(path: path, reason: "cannot create file"))
        }
        var hasher = SHA256()
        let writer: ParquetWriter
        do {
            writer = try ParquetWriter(columns: columns.map { .init(name: $0.name, type: parquetType($0.type)) }) { bytes in
                hasher.update(data: bytes)
                try handle.write(contentsOf: bytes)
            }
            var reader = CSVRecordReader(source: try GzipReader(source: try FileByteSource(path: csvPath)))
            var isHeader = true
            var rowNumber = 0
            while let record = try reader.next() {
                if isHeader {
                    isHeader = false
                    continue
                }
                rowNumber += 1
                let fields = CSVFormat.fields(of: record)
                guard fields.count == columns.count else {
                    throw JobError.internalError("\(output.name) row \(rowNumber): \(fields.count) fields for \(columns.count) columns")
                }
                var row: [ParquetValue?] = []
                row.reserveCapacity(columns.count)
                for (field, column) in zip(fields, columns) {
                    guard let value = value(field, column.type) else {
                        throw JobError.internalError(
                            "\(output.name) row \(rowNumber): \(column.name) '\(field ?? "")' is not a \(column.type)")
                    }
                    row.append(value)
                }
                try writer.append(row)
            }
            let bytes = try writer.finish()
            try handle.synchronize()
            try handle.close()
            return OutputStats(
                name: name, rows: writer.rows, bytes: bytes, sha256: HexDigest.string(hasher.finalize()),
                schema: ReportSchema(name: name, columns: columns.map { ($0.name, $0.type) }))
        } catch let error as JobError {
            throw error
        } catch {
            throw JobError.io(IOError(path: path, reason: "\(error)"))
        }
    }

    /// `views.sql`: one DuckDB view per table over every night's Parquet file of it.
    private static func writeViews(_ tables: [String], directory: String, outputDirectory: String) throws -> OutputStats {
        let escaped = outputDirectory.replacingOccurrences(of: "'", with: "''")
        var text = "-- DuckDB views over every night's Parquet tables (duckdb -init views.sql, or .read views.sql).\n"
        for table in tables {
            text +=
                "CREATE OR REPLACE VIEW \(table) AS SELECT * FROM read_parquet('\(escaped)/dt=*/\(table).parquet', hive_partitioning = true);\n"
        }
        let bytes = Array(text.utf8)
        let path = directory + "/views.sql"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw JobError.io(IOError(path: path, reason: "cannot write"))
        }
        return OutputStats(
            name: "views.sql", rows: tables.count, bytes: bytes.count, sha256: HexDigest.string(SHA256.hash(data: bytes)),
            schema: ReportSchema(name: "views.sql", columns: []))
    }
}

/// CSV records of a byte stream: a newline inside quotes belongs to its field (RFC 4180), so records are
/// split on newlines outside quotes only.
struct CSVRecordReader {
    private var source: any ByteSource
    private var buffer: [UInt8] = []
    private var position = 0
    private var isEnd = false

    init(source: any ByteSource) {
        self.source = source
    }

    /// The next record with its newline, or `nil` at the end.
    mutating func next() throws -> String? {
        var record: [UInt8] = []
        var isQuoted = false
        while true {
            if position == buffer.count {
                guard !isEnd else { return record.isEmpty ? nil : String(decoding: record, as: UTF8.self) }
                buffer.removeAll(keepingCapacity: true)
                position = 0
                if try source.read(into: &buffer, maximumCount: 1 << 18) == 0 { isEnd = true }
                continue
            }
            let byte = buffer[position]
            position += 1
            record.append(byte)
            if byte == 0x22 { isQuoted.toggle() }
            if byte == 0x0A, !isQuoted { return String(decoding: record, as: UTF8.self) }
        }
    }
}
