import Testing
import WinbackAppStore

@testable import WinbackAnalytics

/// A row's typed values as bytes (a shard's subscriptions rows on their way to the merge): replayed, they give
/// exactly the cells of the row they were made from, and a cut or foreign encoding is refused.
@Suite struct EncodedRowTests {
    /// Every kind of cell, empty and not, with text that needs quoting in CSV.
    struct EveryKind: TableRow {
        var isEmpty: Bool
        func write(to fields: inout some RowFields) {
            fields.text(isEmpty ? nil : "a, \"quoted\"\nline é")
            fields.integer(isEmpty ? nil : -42)
            fields.instant(isEmpty ? nil : 1_763_510_400_123)
            fields.rate(isEmpty ? nil : -1_500_000)
            fields.money(isEmpty ? nil : 9_990)
            fields.date(isEmpty ? nil : 20_411)
            fields.boolean(isEmpty ? nil : false)
            fields.text("")
        }
    }

    @Test(arguments: [false, true])
    func replayGivesTheSameCells(_ isEmpty: Bool) throws {
        let row = EveryKind(isEmpty: isEmpty)
        let encoded = EncodedRow(row)
        #expect(encoded.cells == row.cells)
        let read = try #require(EncodedRow(validating: encoded.bytes, columns: 8))
        #expect(read.cells == row.cells)
        var csv: [UInt8] = []
        CSVRowFields.append(read, to: &csv)
        #expect(String(decoding: csv, as: UTF8.self) == CSVFormat.line(row.cells))
        if !isEmpty {
            #expect(
                row.cells == ["a, \"quoted\"\nline é", "-42", "2025-11-19T00:00:00.123Z", "-1.500000", "9990", "2025-11-19", "false", ""])
        }
    }

    @Test func aCutOrForeignEncodingIsRefused() {
        let bytes = EncodedRow(EveryKind(isEmpty: false)).bytes
        #expect(EncodedRow(validating: bytes, columns: 7) == nil)
        for cut in [1, 3, 10, bytes.count - 1] { #expect(EncodedRow(validating: Array(bytes.prefix(cut)), columns: 8) == nil, "\(cut)") }
        #expect(EncodedRow(validating: [0x7F] + bytes, columns: 9) == nil)
    }
}
