import Crypto
import Foundation
import WinbackCore
import WinbackIO
import WinbackParquet

/// `report.formats` (docs/analysts.md): every CSV table has a Parquet twin written with it (``TableWriter``,
/// ``ParquetTwin``), typed by the manifest's column types, so the Parquet file equals its CSV row for row; with
/// `parquet` only, the CSV is removed before publishing. `views.sql` holds a DuckDB view over every night's
/// Parquet files.
enum ParquetTables {
    /// The outputs as published: with `parquet` only, the CSV tables (whose twins are among `outputs`) removed
    /// from `directory` and the list; with Parquet on, `views.sql` naming `outputDirectory` added.
    static func publishedOutputs(
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
            let table = String(output.name.dropLast(".csv.gz".count))
            guard outputs.contains(where: { $0.name == table + ".parquet" }) else {
                throw JobError.internalError("\(output.name) was written without its Parquet twin")
            }
            tables.append(table)
            if formats.contains(.csv) {
                published.append(output)
            } else {
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

    /// Appends a CSV cell's bytes (`nil`: an empty cell, a null) as the value of its column type; throws for
    /// a cell the type does not parse, which would be a defect of the writer that made the CSV.
    static func append(_ cell: UnsafeRawBufferPointer?, as type: ColumnType, to cells: inout ParquetWriter.RowCells) throws {
        guard let cell, !cell.isEmpty else { return try cells.null() }
        let parsed: Int64?
        switch type {
        case .string, .currency, .month, .stringArray: return try cells.bytes(cell)
        case .integer, .money: parsed = integer(cell)
        case .rate: parsed = decimal(cell, scale: 6)
        case .boolean:
            if cell.elementsEqual("true".utf8) { return try cells.boolean(true) }
            if cell.elementsEqual("false".utf8) { return try cells.boolean(false) }
            parsed = nil
        case .date: parsed = cell.count == 10 ? day(cell) : nil
        case .instant: parsed = instant(cell)
        }
        guard let parsed else { throw CellError(text: String(decoding: cell, as: UTF8.self), type: type) }
        try cells.integer(parsed)
    }

    /// A cell its column's type does not parse.
    struct CellError: Error {
        var text: String
        var type: ColumnType
    }

    /// ASCII digits with an optional minus sign, without overflow.
    static func integer(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        var digits = bytes[...]
        let isNegative = digits.first == UInt8(ascii: "-")
        if isNegative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 19 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = shifted.addingReportingOverflow(Int64(byte - 0x30))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return isNegative ? -value : value
    }

    /// `-0.123456` as the unscaled integer of `scale` decimals (fewer decimals are padded; more are refused).
    static func decimal(_ bytes: UnsafeRawBufferPointer, scale: Int) -> Int64? {
        var digits = bytes[...]
        let isNegative = digits.first == UInt8(ascii: "-")
        if isNegative { digits = digits.dropFirst() }
        let dot = digits.firstIndex(of: UInt8(ascii: "."))
        let whole = dot.map { digits[digits.startIndex..<$0] } ?? digits
        let fraction = dot.map { digits[($0 + 1)...] } ?? digits[digits.endIndex...]
        guard fraction.count <= scale, !whole.isEmpty, let wholeValue = integer(UnsafeRawBufferPointer(rebasing: whole)), wholeValue >= 0
        else { return nil }
        var value = wholeValue
        for position in 0..<scale {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            value = shifted
            if position < fraction.count {
                let byte = fraction[fraction.startIndex + position]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value += Int64(byte - 0x30)
            }
        }
        return isNegative ? -value : value
    }

    /// A decimal given as text (see ``decimal(_:scale:)-(UnsafeRawBufferPointer,_)``).
    static func decimal(_ text: String, scale: Int) -> Int64? {
        var text = text
        return text.withUTF8 { decimal(UnsafeRawBufferPointer($0), scale: scale) }
    }

    /// `YYYY-MM-DD` (the first 10 bytes) as days since 1970-01-01.
    private static func day(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        func number(_ offset: Int, _ length: Int) -> Int64? { integer(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])) }
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), let year = number(0, 4),
            let month = number(5, 2), let dayOfMonth = number(8, 2), (1...12).contains(month), (1...31).contains(dayOfMonth)
        else { return nil }
        return InstantFormat.days(year: year, month: month, day: dayOfMonth)
    }

    /// `2026-11-19T06:00:00.000Z` as epoch milliseconds.
    static func instant(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        guard bytes.count == 24, bytes[10] == UInt8(ascii: "T"), bytes[23] == UInt8(ascii: "Z"), let days = day(bytes) else { return nil }
        func number(_ offset: Int, _ length: Int) -> Int64? { integer(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])) }
        guard let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2), let millisecond = number(20, 3) else {
            return nil
        }
        return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
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
