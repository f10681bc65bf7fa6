import CZlib

/// Writes a flat table as a Parquet file (docs/analysts.md): every column OPTIONAL (empty cells are nulls), PLAIN
/// encoding, one GZIP-compressed data page (v1) per column per row group, a row group per
/// ``rowGroupRows`` rows, column statistics (null count, min, max) and a Thrift-compact footer with each
/// column's logical type. Readable by DuckDB, pyarrow and Polars (`.ci/check_parquet.py` reads what the
/// sample run writes).
///
/// Memory holds one row group's values. Bytes go to `sink` in order; nothing is written before ``init``.
public final class ParquetWriter {
    /// A column's name and type.
    public struct Column: Sendable, Equatable {
        /// The column's name (the CSV header's).
        public var name: String
        /// Its physical and logical type.
        public var type: ParquetColumnType

        /// A column `name` of `type`.
        public init(name: String, type: ParquetColumnType) {
            self.name = name
            self.type = type
        }
    }

    /// Why a table could not be written.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    private let columns: [Column]
    private let rowGroupRows: Int
    private let level: Int32
    private let sink: ([UInt8]) throws -> Void
    fileprivate var buffers: [ColumnBuffer]
    private var rowGroups: [RowGroupInfo] = []
    private var rowsInGroup = 0
    /// Rows written so far.
    public private(set) var rows = 0
    /// Bytes handed to the sink so far.
    public private(set) var offset = 0

    /// Rows per row group (docs/analysts.md: a million).
    public static let defaultRowGroupRows = 1_000_000

    /// A writer of `columns`; writes the magic bytes to `sink` at once.
    public init(
        columns: [Column], rowGroupRows: Int = defaultRowGroupRows, compressionLevel: Int32 = 6, sink: @escaping ([UInt8]) throws -> Void
    )
        throws
    {
        self.columns = columns
        self.rowGroupRows = max(1, rowGroupRows)
        level = compressionLevel
        self.sink = sink
        buffers = columns.map { ColumnBuffer(type: $0.type) }
        try emit(Self.magic)
    }

    static let magic: [UInt8] = Array("PAR1".utf8)

    /// Appends one row (one value or `nil` per column, in column order).
    public func append(_ row: [ParquetValue?]) throws {
        guard row.count == columns.count else {
            throw Failure(description: "a row of \(row.count) values for \(columns.count) columns")
        }
        try appendRow { cells in
            for value in row { try cells.append(value) }
        }
    }

    /// Appends one row whose values `fill` gives one at a time, in column order, without boxing them: the
    /// fast path for tables converted cell by cell. After a throw the table is abandoned (a row may be half in).
    public func appendRow(_ fill: (inout RowCells) throws -> Void) throws {
        var cells = RowCells(writer: self)
        try fill(&cells)
        guard cells.column == columns.count else {
            throw Failure(description: "a row of \(cells.column) values for \(columns.count) columns")
        }
        rows += 1
        rowsInGroup += 1
        if rowsInGroup >= rowGroupRows { try flushRowGroup() }
    }

    /// The values of the row being appended, column after column (``appendRow(_:)``).
    public struct RowCells: ~Copyable {
        fileprivate let writer: ParquetWriter
        /// The column the next value goes to.
        public private(set) var column = 0

        fileprivate init(writer: ParquetWriter) {
            self.writer = writer
        }

        private mutating func next(_ isAccepted: Bool, _ kind: @autoclosure () -> String) throws {
            guard isAccepted else {
                let name = column < writer.columns.count ? writer.columns[column].name : "#\(column)"
                throw Failure(description: "column \(name): a value of the wrong kind (\(kind()))")
            }
            column += 1
        }

        private var hasRoom: Bool { column < writer.columns.count }

        /// A null.
        public mutating func null() throws {
            if hasRoom { writer.buffers[column].appendNull() }
            try next(hasRoom, "a value past the last column")
        }

        /// An INT64, a decimal's unscaled value, a timestamp's milliseconds or a date's days.
        public mutating func integer(_ value: Int64) throws {
            try next(hasRoom && writer.buffers[column].appendInteger(value), "integer \(value)")
        }

        /// A string's UTF-8 bytes.
        public mutating func bytes(_ value: UnsafeRawBufferPointer) throws {
            try next(hasRoom && writer.buffers[column].appendBytes(value), "\(value.count) bytes")
        }

        /// A BOOLEAN.
        public mutating func boolean(_ value: Bool) throws {
            try next(hasRoom && writer.buffers[column].appendBoolean(value), "boolean \(value)")
        }

        /// Any value, or `nil` for a null.
        public mutating func append(_ value: ParquetValue?) throws {
            switch value {
            case nil: try null()
            case .integer(let integer)?: try self.integer(integer)
            case .bytes(let bytes)?: try bytes.withUnsafeBytes { try self.bytes($0) }
            case .boolean(let flag)?: try boolean(flag)
            }
        }
    }

    /// Writes the last row group and the footer; returns the file's size in bytes.
    public func finish() throws -> Int {
        if rowsInGroup > 0 { try flushRowGroup() }
        var footer = ThriftCompactWriter()
        footer.structBody { meta in
            meta.i32(1, 2)
            meta.structList(2, [nil] + columns.map { Optional($0) }) { element, column in
                guard let column else {
                    element.string(4, "schema")
                    element.i32(5, Int32(columns.count))
                    return
                }
                Self.schemaElement(&element, column)
            }
            meta.i64(3, Int64(rows))
            meta.structList(4, rowGroups) { group, info in
                group.structList(1, info.chunks) { chunk, metadata in
                    chunk.i64(2, metadata.dataPageOffset)
                    chunk.structure(3) { Self.columnMetaData(&$0, metadata) }
                }
                group.i64(2, info.totalUncompressed)
                group.i64(3, Int64(info.rows))
                group.i64(5, info.chunks.first?.dataPageOffset ?? 0)
                group.i64(6, info.totalCompressed)
            }
            meta.string(6, "winback parquet writer")
            // TYPE_ORDER for every column: min and max follow each type's own order.
            meta.structList(7, columns) { order, _ in order.structure(1) { _ in } }
        }
        try emit(footer.bytes)
        let length = UInt32(footer.bytes.count)
        try emit([UInt8(length & 0xFF), UInt8((length >> 8) & 0xFF), UInt8((length >> 16) & 0xFF), UInt8(length >> 24)] + Self.magic)
        return offset
    }

    private func emit(_ bytes: [UInt8]) throws {
        try sink(bytes)
        offset += bytes.count
    }

    private static func schemaElement(_ element: inout ThriftCompactWriter, _ column: Column) {
        element.i32(1, column.type.physicalType)
        element.i32(3, 1)  // OPTIONAL
        element.string(4, column.name)
        if let converted = column.type.convertedType { element.i32(6, converted) }
        if case .decimal(let scale) = column.type {
            element.i32(7, scale)
            element.i32(8, 18)
        }
        switch column.type {
        case .string: element.structure(10) { $0.structure(1) { _ in } }
        case .decimal(let scale):
            element.structure(10) { logical in
                logical.structure(5) { decimal in
                    decimal.i32(1, scale)
                    decimal.i32(2, 18)
                }
            }
        case .date: element.structure(10) { $0.structure(6) { _ in } }
        case .timestampMillis:
            element.structure(10) { logical in
                logical.structure(8) { timestamp in
                    timestamp.bool(1, true)
                    timestamp.structure(2) { $0.structure(1) { _ in } }
                }
            }
        case .int64, .boolean: break
        }
    }

    private static func columnMetaData(_ meta: inout ThriftCompactWriter, _ chunk: ChunkInfo) {
        meta.i32(1, chunk.column.type.physicalType)
        meta.i32List(2, [0, 3])  // PLAIN values, RLE (hybrid) definition levels
        meta.stringList(3, [chunk.column.name])
        meta.i32(4, 2)  // GZIP
        meta.i64(5, Int64(chunk.values))
        meta.i64(6, chunk.uncompressedSize)
        meta.i64(7, chunk.compressedSize)
        meta.i64(9, chunk.dataPageOffset)
        meta.structure(12) { Self.statistics(&$0, chunk.statistics) }
    }

    private static func statistics(_ stats: inout ThriftCompactWriter, _ statistics: ColumnBuffer.Statistics) {
        stats.i64(3, Int64(statistics.nulls))
        if let max = statistics.max { stats.binary(5, max) }
        if let min = statistics.min { stats.binary(6, min) }
    }

    /// Writes the buffered rows as one row group: per column one data page, then its chunk's metadata.
    private func flushRowGroup() throws {
        var info = RowGroupInfo(rows: rowsInGroup)
        for (index, column) in columns.enumerated() {
            let buffer = buffers[index]
            let page = buffer.encodedPage()
            let compressed = try Self.gzip(page, level: level)
            var header = ThriftCompactWriter()
            header.structBody { header in
                header.i32(1, 0)  // DATA_PAGE
                header.i32(2, Int32(page.count))
                header.i32(3, Int32(compressed.count))
                header.structure(5) { data in
                    data.i32(1, Int32(buffer.count))
                    data.i32(2, 0)  // PLAIN values
                    data.i32(3, 3)  // RLE definition levels
                    data.i32(4, 3)  // RLE repetition levels (none)
                }
            }
            let start = Int64(offset)
            try emit(header.bytes)
            try emit(compressed)
            let chunk = ChunkInfo(
                column: column, values: buffer.count, dataPageOffset: start,
                uncompressedSize: Int64(header.bytes.count + page.count), compressedSize: Int64(header.bytes.count + compressed.count),
                statistics: buffer.statistics)
            info.chunks.append(chunk)
            info.totalUncompressed += chunk.uncompressedSize
            info.totalCompressed += chunk.compressedSize
            buffers[index] = ColumnBuffer(type: column.type)
        }
        rowGroups.append(info)
        rowsInGroup = 0
    }

    /// `bytes` as one gzip member (zlib, window bits 15 + 16).
    static func gzip(_ bytes: [UInt8], level: Int32) throws -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else { throw Failure(description: "zlib deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = destination.baseAddress
                stream.avail_out = UInt32(destination.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw Failure(description: "zlib deflate failed (\(status))") }
        output.removeLast(Int(stream.avail_out))
        return output
    }

    struct ChunkInfo {
        var column: Column
        var values: Int
        var dataPageOffset: Int64
        var uncompressedSize: Int64
        var compressedSize: Int64
        var statistics: ColumnBuffer.Statistics
    }

    struct RowGroupInfo {
        var rows: Int
        var chunks: [ChunkInfo] = []
        var totalUncompressed: Int64 = 0
        var totalCompressed: Int64 = 0
    }
}
