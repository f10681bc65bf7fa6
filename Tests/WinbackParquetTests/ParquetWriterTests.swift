import Foundation
import Testing

@testable import WinbackParquet

/// The Parquet writer (docs/analysts.md) read back by the test reader: every type, nulls, empty tables, several
/// row groups, statistics and the footer's logical types. `.ci/run` also reads the sample run's files
/// with pyarrow and DuckDB.
@Suite struct ParquetWriterTests {
    static let columns: [ParquetWriter.Column] = [
        .init(name: "name", type: .string), .init(name: "count", type: .int64), .init(name: "rate", type: .decimal(scale: 6)),
        .init(name: "net", type: .decimal(scale: 3)), .init(name: "day", type: .date), .init(name: "at", type: .timestampMillis),
        .init(name: "flag", type: .boolean),
    ]

    static func write(_ rows: [[ParquetValue?]], rowGroupRows: Int = 1_000_000) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let writer = try ParquetWriter(columns: columns, rowGroupRows: rowGroupRows) { bytes += $0 }
        for row in rows { try writer.append(row) }
        let size = try writer.finish()
        #expect(size == bytes.count)
        return bytes
    }

    static let rows: [[ParquetValue?]] = [
        [
            .bytes(Array("alpha".utf8)), .integer(7), .integer(123_456), .integer(-4990), .integer(20_776), .integer(1_795_132_800_000),
            .boolean(true),
        ],
        [nil, nil, nil, nil, nil, nil, nil],
        [.bytes(Array("é ünicode".utf8)), .integer(-1), .integer(-1_000_000), .integer(0), .integer(0), .integer(-1), .boolean(false)],
        [.bytes([]), .integer(Int64.max), .integer(1), .integer(9_999_999), nil, .integer(0), nil],
    ]

    @Test func everyTypeAndNullReadsBack() throws {
        let reader = try ParquetTestReader(try Self.write(Self.rows))
        #expect(reader.footer[3]?.integer == 4)
        for index in Self.columns.indices {
            #expect(try reader.column(index) == Self.rows.map { $0[index] }, "column \(Self.columns[index].name)")
        }
    }

    @Test func theSchemaCarriesTheLogicalTypes() throws {
        let reader = try ParquetTestReader(try Self.write(Self.rows))
        let schema = reader.footer[2]?.list ?? []
        #expect(schema.count == 8 && schema[0][5]?.integer == 7)
        #expect(schema.dropFirst().map { $0[4]?.string ?? "" } == Self.columns.map(\.name))
        // Physical types: BYTE_ARRAY, INT64, INT64, INT64, INT32, INT64, BOOLEAN; all OPTIONAL.
        #expect(schema.dropFirst().map { $0[1]?.integer ?? -1 } == [6, 2, 2, 2, 1, 2, 0])
        #expect(schema.dropFirst().allSatisfy { $0[3]?.integer == 1 })
        // Logical types: STRING, none, DECIMAL(18,6), DECIMAL(18,3), DATE, TIMESTAMP(UTC, MILLIS), none.
        #expect(schema[1][10]?[1] != nil)
        #expect(schema[3][10]?[5]?[1]?.integer == 6 && schema[3][10]?[5]?[2]?.integer == 18)
        #expect(schema[4][10]?[5]?[1]?.integer == 3)
        #expect(schema[5][10]?[6] != nil)
        #expect(schema[6][10]?[8]?[1] == .boolean(true) && schema[6][10]?[8]?[2]?[1] != nil)
        #expect(schema[2][10] == nil && schema[7][10] == nil)
    }

    @Test func statisticsHoldNullsMinimumAndMaximum() throws {
        let reader = try ParquetTestReader(try Self.write(Self.rows))
        let chunks = reader.footer[4]?.list.first?[1]?.list ?? []
        func stats(_ index: Int) -> ParquetTestReader.Thrift? { chunks[index][3]?[12] }
        #expect(stats(0)?[3]?.integer == 1)
        #expect(stats(0)?[6]?.binary == [] && stats(0)?[5]?.binary == Array("é ünicode".utf8))
        #expect(stats(1)?[6]?.binary == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(stats(1)?[5]?.binary == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])
        #expect(stats(4)?[3]?.integer == 2 && stats(4)?[6]?.binary == [0, 0, 0, 0])
        #expect(stats(6)?[6]?.binary == [0] && stats(6)?[5]?.binary == [1])
    }

    @Test func anEmptyTableHasNoRowGroups() throws {
        let reader = try ParquetTestReader(try Self.write([]))
        #expect(reader.footer[3]?.integer == 0 && reader.footer[4]?.list.isEmpty == true)
        #expect(reader.footer[2]?.list.count == 8)
    }

    @Test func aLargeTableIsSplitIntoRowGroups() throws {
        var rows: [[ParquetValue?]] = []
        for index in 0..<2_500 {
            let number = Int64(index)
            let rate: ParquetValue? = index % 3 == 0 ? nil : .integer(number * 10)
            var row: [ParquetValue?] = [.bytes(Array("row \(index)".utf8)), .integer(number), rate, .integer(0)]
            row += [.integer(number % 365), .integer(number * 1000), .boolean(index % 2 == 0)]
            rows.append(row)
        }
        let reader = try ParquetTestReader(try Self.write(rows, rowGroupRows: 1000))
        #expect(reader.footer[4]?.list.map { $0[3]?.integer ?? 0 } == [1000, 1000, 500])
        for index in Self.columns.indices { #expect(try reader.column(index) == rows.map { $0[index] }) }
    }

    @Test func aValueOfTheWrongKindIsRefused() throws {
        let writer = try ParquetWriter(columns: [.init(name: "n", type: .int64)]) { _ in }
        #expect(throws: ParquetWriter.Failure.self) { try writer.append([.bytes([1])]) }
        #expect(throws: ParquetWriter.Failure.self) { try writer.appendRow { try $0.boolean(true) } }
        #expect(throws: ParquetWriter.Failure.self) { try writer.appendRow { _ in } }  // too few values
        #expect(throws: ParquetWriter.Failure.self) {
            try writer.appendRow { cells in
                try cells.integer(1)
                try cells.null()  // one past the last column
            }
        }
    }

    /// Cells appended one at a time and ended with `endRow()` (the path typed table rows take) make the same
    /// file as rows of values; a wrong kind, too few or too many cells are refused at the row's end.
    @Test func cellsEndedByEndRowEqualRowsOfValues() throws {
        var bytes: [UInt8] = []
        let writer = try ParquetWriter(columns: Self.columns) { bytes += $0 }
        for row in Self.rows {
            for value in row {
                switch value {
                case nil: writer.appendNullCell()
                case .integer(let integer)?: writer.appendIntegerCell(integer)
                case .bytes(let text)?: text.withUnsafeBytes { writer.appendBytesCell($0) }
                case .boolean(let flag)?: writer.appendBooleanCell(flag)
                }
            }
            try writer.endRow()
        }
        _ = try writer.finish()
        #expect(bytes == (try Self.write(Self.rows)))

        let single = try ParquetWriter(columns: [.init(name: "n", type: .int64)]) { _ in }
        single.appendBooleanCell(true)
        #expect(throws: ParquetWriter.Failure.self) { try single.endRow() }
        #expect(throws: ParquetWriter.Failure.self) { try single.endRow() }  // no cell
        single.appendIntegerCell(1)
        single.appendNullCell()
        #expect(throws: ParquetWriter.Failure.self) { try single.endRow() }  // one past the last column
        single.appendIntegerCell(2)
        try single.endRow()
        #expect(single.rows == 1)
    }

    /// Rows given cell by cell (the converter's path) make the same file as rows of values.
    @Test func rowsCellByCellEqualRowsOfValues() throws {
        var bytes: [UInt8] = []
        let writer = try ParquetWriter(columns: Self.columns) { bytes += $0 }
        for row in Self.rows {
            try writer.appendRow { cells in
                for value in row {
                    switch value {
                    case nil: try cells.null()
                    case .integer(let integer)?: try cells.integer(integer)
                    case .bytes(let text)?: try text.withUnsafeBytes { try cells.bytes($0) }
                    case .boolean(let flag)?: try cells.boolean(flag)
                    }
                }
            }
        }
        _ = try writer.finish()
        #expect(bytes == (try Self.write(Self.rows)))
    }

    /// A chunk's column-at-a-time path (``ParquetWriter/appendRows(_:_:)``) makes the same file as rows one by
    /// one, across row groups.
    @Test func rowsColumnByColumnEqualRowsOfValues() throws {
        let rows = (0..<2_500).map { index in Self.rows[index % Self.rows.count] }
        var bytes: [UInt8] = []
        let writer = try ParquetWriter(columns: Self.columns, rowGroupRows: 1000) { bytes += $0 }
        for start in stride(from: 0, to: rows.count, by: 700) {
            let chunk = rows[start..<min(start + 700, rows.count)]
            try writer.appendRows(chunk.count) { column, range, values in
                for row in range {
                    let isAccepted = values.append(chunk[chunk.startIndex + row][column])
                    #expect(isAccepted)
                }
            }
        }
        #expect(try writer.finish() == bytes.count)
        #expect(bytes == (try Self.write(rows, rowGroupRows: 1000)))
        let writerOfTwo = try ParquetWriter(columns: Array(Self.columns.prefix(2))) { _ in }
        #expect(throws: ParquetWriter.Failure.self) {
            try writerOfTwo.appendRows(2) { column, _, values in values.appendNull() }  // one value for two rows
        }
    }

    static func strings(_ column: [String?], rowGroupRows: Int = 1_000_000) throws -> ParquetTestReader {
        var bytes: [UInt8] = []
        let writer = try ParquetWriter(columns: [.init(name: "s", type: .string)], rowGroupRows: rowGroupRows) { bytes += $0 }
        for value in column { try writer.append([value.map { .bytes(Array($0.utf8)) }]) }
        _ = try writer.finish()
        return try ParquetTestReader(bytes)
    }

    /// Repetitive strings go to a dictionary page with RLE_DICTIONARY indices; unique ones stay PLAIN, and a
    /// column that stops paying part way is written PLAIN whole. Each reads back value for value, min and max
    /// as before.
    static let stringColumns: [(String, [String?], Bool)] = [
        ("three products", (0..<5_000).map { $0 % 9 == 0 ? nil : ["annual", "monthly", "weekly"][$0 % 3] }, true),
        ("one value", (0..<100).map { _ in "USA" }, true),
        ("unique ids", (0..<3_000).map { "id-\($0)" }, false),
        ("repetitive, then unique", (0..<4_000).map { $0 < 1_500 ? "same" : "id-\($0)" }, false),
        ("only nulls", [String?](repeating: nil, count: 10), false),
    ]

    @Test(arguments: stringColumns)
    func stringsUseADictionaryWhileItPays(_ name: String, _ column: [String?], _ isDictionary: Bool) throws {
        let reader = try Self.strings(column)
        #expect(try reader.column(0) == column.map { $0.map { .bytes(Array($0.utf8)) } }, "\(name)")
        let metadata = reader.footer[4]?.list.first?[1]?.list.first?[3]
        #expect((metadata?[11] != nil) == isDictionary, "\(name)")
        #expect(metadata?[2]?.list.map { $0.integer ?? -1 } == (isDictionary ? [0, 3, 8] : [0, 3]), "\(name)")
        let present = column.compactMap { $0 }
        #expect(metadata?[12]?[6]?.string == present.min() && metadata?[12]?[5]?.string == present.max(), "\(name)")
        #expect(metadata?[12]?[3]?.integer == Int64(column.count - present.count), "\(name)")
    }

    @Test(arguments: [
        (3, 10, 100, true), (1024, 1024, 10_000, true), (1025, 2050, 10_000, true), (1025, 2049, 10_000, false),
        (10, 1_000, 1 << 20, true), (10, 1_000, (1 << 20) + 1, false),
    ])
    func theDictionaryPaysUpToHalfTheValuesOrAMebibyte(_ entries: Int, _ values: Int, _ bytes: Int, _ pays: Bool) {
        #expect(ColumnBuffer.dictionaryPays(entries: entries, values: values, bytes: bytes) == pays)
    }

    /// Every deflater available here writes pages every reader inflates to the same rows.
    @Test(arguments: PageDeflater.allCases)
    func eachDeflaterWritesTheSameRows(_ deflater: PageDeflater) throws {
        guard deflater.isAvailable else { return }
        let rows = (0..<3_000).map { index in Self.rows[index % Self.rows.count] }
        var bytes: [UInt8] = []
        let writer = try ParquetWriter(columns: Self.columns, deflater: deflater) { bytes += $0 }
        for row in rows { try writer.append(row) }
        _ = try writer.finish()
        let reader = try ParquetTestReader(bytes)
        for index in Self.columns.indices { #expect(try reader.column(index) == rows.map { $0[index] }) }
    }

    /// Where ISA-L's header and library are both installed (CI installs libisal-dev), pages are deflated by
    /// ISA-L, so the test above writes through both engines there.
    @Test func isalDeflatesPagesWhereInstalled() {
        let installed = ["/usr/include/isa-l/igzip_lib.h", "/usr/lib/x86_64-linux-gnu/libisal.so.2"].allSatisfy {
            FileManager.default.fileExists(atPath: $0)
        }
        if installed && ProcessInfo.processInfo.environment["WINBACK_DEFLATER"] == nil {
            #expect(PageDeflater.preferred == .isal)
        }
        #expect(PageDeflater.zlib.isAvailable)
    }

    static let zigzagCases: [(Int64, [UInt8])] = [
        (0, [0]), (1, [2]), (-1, [1]), (300, [0xD8, 0x04]), (Int64.min, [UInt8](repeating: 0xFF, count: 9) + [1]),
    ]

    @Test(arguments: zigzagCases)
    func thriftIntegersAreZigzagVarints(_ value: Int64, _ expected: [UInt8]) {
        var writer = ThriftCompactWriter()
        writer.zigzag(value)
        #expect(writer.bytes == expected)
    }
}
