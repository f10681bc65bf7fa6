import WinbackAnalytics
import WinbackParquet

/// A row's typed values appended straight to a Parquet file's columns (``ParquetTables/parquetType(_:)``):
/// text as its UTF-8 bytes, integers and money as INT64 / DECIMAL(18, 3) milliunits, rates as DECIMAL(18, 6)
/// millionths, instants as milliseconds, dates as days. Nothing is rendered to text and read back.
struct ParquetRowFields: RowFields {
    let writer: ParquetWriter

    mutating func text(_ value: String?) {
        guard var value else { return writer.appendNullCell() }
        value.withUTF8 { writer.appendBytesCell(UnsafeRawBufferPointer($0)) }
    }

    mutating func text(utf8 bytes: UnsafeRawBufferPointer) {
        writer.appendBytesCell(bytes)
    }

    mutating func integer(_ value: Int64?) { number(value) }
    mutating func instant(_ milliseconds: Int64?) { number(milliseconds) }
    mutating func rate(_ millionths: Int64?) { number(millionths) }
    mutating func money(_ milliunits: Int64?) { number(milliunits) }
    mutating func date(_ days: Int64?) { number(days) }

    mutating func boolean(_ value: Bool?) {
        guard let value else { return writer.appendNullCell() }
        writer.appendBooleanCell(value)
    }

    private func number(_ value: Int64?) {
        guard let value else { return writer.appendNullCell() }
        writer.appendIntegerCell(value)
    }
}
