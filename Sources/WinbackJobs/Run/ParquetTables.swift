import Crypto
import Foundation
import WinbackAnalytics
import WinbackAppStore
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

    /// Appends field `column` of each row of `rows` of a chunk of CSV rows as values of its column type (an
    /// empty field is a null); throws for a field the type does not parse, which would be a defect of the writer
    /// that made the CSV. One loop per type, so a column's rows go through without a decision per cell.
    static func appendColumn(
        _ fields: CSVChunk.Fields, column: Int, rows: Range<Int>, as type: ColumnType, to values: inout ColumnBuffer
    ) throws(CellError) {
        func refuse(_ cell: UnsafeRawBufferPointer, _ row: Int) -> CellError {
            CellError(text: String(decoding: cell, as: UTF8.self), type: type, row: row)
        }
        func append(_ parse: (UnsafeRawBufferPointer) -> Int64?) throws(CellError) {
            for row in rows {
                let cell = fields[row, column]
                if cell.isEmpty {
                    values.appendNull()
                } else {
                    guard let value = parse(cell), values.appendInteger(value) else { throw refuse(cell, row) }
                }
            }
        }
        switch type {
        case .string, .currency, .month, .stringArray:
            for row in rows {
                let cell = fields[row, column]
                if cell.isEmpty { values.appendNull() } else { _ = values.appendBytes(cell) }
            }
        case .integer, .money: try append(integer)
        case .rate: try append { decimal($0, scale: 6) }
        case .date: try append { $0.count == 10 ? day($0) : nil }
        case .instant: try append(instant)
        case .boolean:
            for row in rows {
                let cell = fields[row, column]
                if cell.isEmpty {
                    values.appendNull()
                } else if cell.elementsEqual("true".utf8) {
                    _ = values.appendBoolean(true)
                } else if cell.elementsEqual("false".utf8) {
                    _ = values.appendBoolean(false)
                } else {
                    throw refuse(cell, row)
                }
            }
        }
    }

    /// A cell its column's type does not parse.
    struct CellError: Error {
        var text: String
        var type: ColumnType
        /// The row (from 0) in the rows appended.
        var row: Int
    }

    /// ASCII digits with an optional minus sign, at most 19 digits, within ±`Int64.max`.
    static func integer(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        let isNegative = bytes.first == UInt8(ascii: "-")
        let start = isNegative ? 1 : 0
        guard bytes.count > start, bytes.count - start <= 19 else { return nil }
        var value: UInt64 = 0
        for index in start..<bytes.count {
            let digit = bytes[index] &- 0x30
            guard digit < 10 else { return nil }
            value = value &* 10 &+ UInt64(digit)
        }
        guard value <= UInt64(Int64.max) else { return nil }
        return isNegative ? -Int64(value) : Int64(value)
    }

    /// The `length` ASCII digits at `offset` (no sign) as a number.
    private static func digits(_ bytes: UnsafeRawBufferPointer, _ offset: Int, _ length: Int) -> Int64? {
        var value: Int64 = 0
        for index in offset..<(offset + length) {
            let digit = bytes[index] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
        }
        return value
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
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), let year = digits(bytes, 0, 4),
            let month = digits(bytes, 5, 2), let dayOfMonth = digits(bytes, 8, 2), (1...12).contains(month), (1...31).contains(dayOfMonth)
        else { return nil }
        return InstantFormat.days(year: year, month: month, day: dayOfMonth)
    }

    /// `2026-11-19T06:00:00.000Z` as epoch milliseconds.
    static func instant(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        guard bytes.count == 24, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: "."), bytes[23] == UInt8(ascii: "Z"), let days = day(bytes), let hour = digits(bytes, 11, 2),
            let minute = digits(bytes, 14, 2), let second = digits(bytes, 17, 2), let millisecond = digits(bytes, 20, 3)
        else { return nil }
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
