/// Writes a flat table as a Parquet file (docs/analysts.md): every column OPTIONAL (empty cells are nulls), PLAIN
/// encoding (a string column with few distinct values: a dictionary page and RLE_DICTIONARY indices,
/// ``ColumnBuffer``), one GZIP-compressed data page (v1) per column per row group (``PageDeflater``), a row
/// group per ``rowGroupRows`` rows, column statistics (null count, min, max) and a Thrift-compact footer with
/// each column's logical type. Readable by DuckDB, pyarrow and Polars (`.ci/check_parquet.py` reads what the
/// sample run writes).
///
/// Memory holds one row group's values. Bytes go to `sink` in order; nothing is written before ``init``.
/// Not thread-safe: one caller at a time, which is why the column buffers a row's cells go into skip the runtime
/// exclusivity check (a cost on every cell of every row; docs/performance.md).
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
    private let deflater: PageDeflater
    private let sink: ([UInt8]) throws -> Void
    @exclusivity(unchecked) fileprivate var buffers: [ColumnBuffer]
    /// The data page being compressed, reused column after column (``ColumnBuffer/encodePages(into:)``).
    private var pageBuffer: [UInt8] = []
    private var rowGroups: [RowGroupInfo] = []
    private var rowsInGroup = 0
    /// Rows written so far.
    public private(set) var rows = 0
    /// Bytes handed to the sink so far.
    public private(set) var offset = 0

    /// Rows per row group (docs/analysts.md: a million).
    public static let defaultRowGroupRows = 1_000_000

    /// A writer of `columns` whose pages `deflater` compresses (zlib at `compressionLevel`); writes the magic
    /// bytes to `sink` at once. `expectedRows`, when the caller knows about how many rows will come, sizes the
    /// column buffers once instead of growing them row group after row group.
    public init(
        columns: [Column], rowGroupRows: Int = defaultRowGroupRows, compressionLevel: Int32 = 6, deflater: PageDeflater = .preferred,
        expectedRows: Int? = nil, sink: @escaping ([UInt8]) throws -> Void
    )
        throws
    {
        guard deflater.isAvailable else { throw Failure(description: "the \(deflater.rawValue) deflater is not available") }
        self.columns = columns
        self.rowGroupRows = max(1, rowGroupRows)
        level = compressionLevel
        self.deflater = deflater
        self.sink = sink
        buffers = columns.map { ColumnBuffer(type: $0.type) }
        if let expectedRows, expectedRows > 0 {
            for index in buffers.indices { buffers[index].reserve(rows: min(expectedRows, self.rowGroupRows)) }
        }
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

    /// Appends one row whose values `fill` gives one at a time, in column order, without boxing them (a chunk
    /// of rows goes faster column by column: ``appendRows(_:_:)``). After a throw the table is abandoned (a row
    /// may be half in).
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

    /// The column the next cell of the row being appended one cell at a time goes to (``appendNullCell()`` …
    /// ``endRow()``).
    @exclusivity(unchecked) private var cellColumn = 0
    /// The first cell of that row its column refused.
    private var cellFailure: Failure?

    @inline(__always)
    private func cell(_ append: (inout ColumnBuffer) -> Bool, _ kind: @autoclosure () -> String) {
        if cellColumn < columns.count {
            if !append(&buffers[cellColumn]), cellFailure == nil {
                cellFailure = Failure(description: "column \(columns[cellColumn].name): a value of the wrong kind (\(kind()))")
            }
        } else if cellFailure == nil {
            cellFailure = Failure(description: "a value past the last column (\(kind()))")
        }
        cellColumn += 1
    }

    /// The row's next cell, a null (cells go in column order; ``endRow()`` ends the row).
    public func appendNullCell() {
        cell(
            {
                $0.appendNull(); return true
            }, "null")
    }

    /// The row's next cell: an INT64, a decimal's unscaled value, a timestamp's milliseconds or a date's days.
    public func appendIntegerCell(_ value: Int64) {
        cell({ $0.appendInteger(value) }, "integer \(value)")
    }

    /// The row's next cell: a string's UTF-8 bytes.
    public func appendBytesCell(_ value: UnsafeRawBufferPointer) {
        cell({ $0.appendBytes(value) }, "\(value.count) bytes")
    }

    /// The row's next cell: a BOOLEAN.
    public func appendBooleanCell(_ value: Bool) {
        cell({ $0.appendBoolean(value) }, "boolean \(value)")
    }

    /// Ends the row whose cells were appended one at a time; throws when a cell was of the wrong kind or the
    /// row has not one cell per column (the table is then abandoned: a row may be half in).
    public func endRow() throws {
        guard cellFailure == nil, cellColumn == columns.count else {
            let failure = cellFailure ?? Failure(description: "a row of \(cellColumn) values for \(columns.count) columns")
            (cellColumn, cellFailure) = (0, nil)
            throw failure
        }
        cellColumn = 0
        rows += 1
        rowsInGroup += 1
        if rowsInGroup >= rowGroupRows { try flushRowGroup() }
    }

    /// Appends `count` rows given column by column, the fast path for a table converted a chunk of rows at a
    /// time: `fill(column, rows, &values)` appends to column `column`'s `values` one value for each row of
    /// `rows` (a range of `0..<count`), and is called for every column once per row group the rows fall in.
    /// After a throw the table is abandoned (some columns may hold more rows than others).
    public func appendRows(
        _ count: Int, _ fill: (_ column: Int, _ rows: Range<Int>, _ values: inout ColumnBuffer) throws -> Void
    ) throws {
        var done = 0
        while done < count {
            let taken = min(count - done, rowGroupRows - rowsInGroup)
            for column in columns.indices {
                let before = buffers[column].count
                try fill(column, done..<(done + taken), &buffers[column])
                let added = buffers[column].count - before
                guard added == taken else {
                    throw Failure(description: "column \(columns[column].name): \(added) values for \(taken) rows")
                }
            }
            done += taken
            rows += taken
            rowsInGroup += taken
            if rowsInGroup >= rowGroupRows { try flushRowGroup() }
        }
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
                    chunk.i64(2, metadata.dictionaryPageOffset ?? metadata.dataPageOffset)
                    chunk.structure(3) { Self.columnMetaData(&$0, metadata) }
                }
                group.i64(2, info.totalUncompressed)
                group.i64(3, Int64(info.rows))
                group.i64(5, info.chunks.first.map { $0.dictionaryPageOffset ?? $0.dataPageOffset } ?? 0)
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
        // PLAIN values (and dictionary), RLE (hybrid) definition levels, RLE_DICTIONARY indices.
        meta.i32List(2, chunk.dictionaryPageOffset == nil ? [0, 3] : [0, 3, 8])
        meta.stringList(3, [chunk.column.name])
        meta.i32(4, 2)  // GZIP
        meta.i64(5, Int64(chunk.values))
        meta.i64(6, chunk.uncompressedSize)
        meta.i64(7, chunk.compressedSize)
        meta.i64(9, chunk.dataPageOffset)
        if let dictionaryPageOffset = chunk.dictionaryPageOffset { meta.i64(11, dictionaryPageOffset) }
        meta.structure(12) { Self.statistics(&$0, chunk.statistics) }
    }

    private static func statistics(_ stats: inout ThriftCompactWriter, _ statistics: ColumnBuffer.Statistics) {
        stats.i64(3, Int64(statistics.nulls))
        if let max = statistics.max { stats.binary(5, max) }
        if let min = statistics.min { stats.binary(6, min) }
    }

    /// Writes the buffered rows as one row group: per column its dictionary page (a dictionary-encoded string
    /// column) and one data page, then its chunk's metadata.
    private func flushRowGroup() throws {
        var info = RowGroupInfo(rows: rowsInGroup)
        for (index, column) in columns.enumerated() {
            let dictionaryPage = buffers[index].encodePages(into: &pageBuffer)
            let (values, statistics) = (buffers[index].count, buffers[index].statistics)
            let start = Int64(offset)
            var uncompressed: Int64 = 0
            var dictionaryPageOffset: Int64?
            if let dictionary = dictionaryPage {
                dictionaryPageOffset = start
                uncompressed += try writePage(dictionary.values, type: 2) { header in  // DICTIONARY_PAGE
                    header.structure(7) { dictionaryHeader in
                        dictionaryHeader.i32(1, Int32(dictionary.count))
                        dictionaryHeader.i32(2, 0)  // PLAIN
                    }
                }
            }
            let dataPageOffset = Int64(offset)
            uncompressed += try writePage(pageBuffer, type: 0) { header in  // DATA_PAGE
                header.structure(5) { data in
                    data.i32(1, Int32(values))
                    data.i32(2, dictionaryPage == nil ? 0 : 8)  // PLAIN or RLE_DICTIONARY values
                    data.i32(3, 3)  // RLE definition levels
                    data.i32(4, 3)  // RLE repetition levels (none)
                }
            }
            let chunk = ChunkInfo(
                column: column, values: values, dataPageOffset: dataPageOffset, dictionaryPageOffset: dictionaryPageOffset,
                uncompressedSize: uncompressed, compressedSize: Int64(offset) - start, statistics: statistics)
            info.chunks.append(chunk)
            info.totalUncompressed += chunk.uncompressedSize
            info.totalCompressed += chunk.compressedSize
            buffers[index].reset()
        }
        rowGroups.append(info)
        rowsInGroup = 0
    }

    /// Writes one page of `type` (Parquet's PageType), `bytes` compressed, after its header, whose
    /// type-specific part `typeHeader` writes. Returns the page's uncompressed size with its header.
    private func writePage(_ bytes: [UInt8], type: Int32, typeHeader: (inout ThriftCompactWriter) -> Void) throws -> Int64 {
        let compressed = try deflater.gzip(bytes, level: level)
        var header = ThriftCompactWriter()
        header.structBody { header in
            header.i32(1, type)
            header.i32(2, Int32(bytes.count))
            header.i32(3, Int32(compressed.count))
            typeHeader(&header)
        }
        try emit(header.bytes)
        try emit(compressed)
        return Int64(header.bytes.count + bytes.count)
    }

    struct ChunkInfo {
        var column: Column
        var values: Int
        var dataPageOffset: Int64
        /// The dictionary page's offset, for a dictionary-encoded chunk (it comes first).
        var dictionaryPageOffset: Int64?
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
