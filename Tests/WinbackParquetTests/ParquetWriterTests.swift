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
