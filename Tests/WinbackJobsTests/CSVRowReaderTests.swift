import Testing
import WinbackAnalytics
import WinbackIO

@testable import WinbackServer

/// The CSV reader under `winback serve`: what ``CSVFormat`` writes reads back
/// field for field, across read-buffer boundaries.
@Suite struct CSVRowReaderTests {
    static let rows: [[String?]] = [
        ["plain", nil, "1"],
        ["a,comma", "a \"quote\"", "line\nbreak"],
        ["", "\"", "é ünicode"],
        [nil, nil, nil],
        [String(repeating: "x", count: 5_000), "after a long field", "z"],
    ]

    @Test(arguments: [1000, Int.max])
    func readsBackWhatCSVFormatWrites(chunk: Int) throws {
        let text = Self.rows.map(CSVFormat.line).joined()
        var reader = CSVRowReader(source: MemoryByteSource(bytes: Array(text.utf8), chunk: chunk))
        var read: [[String?]] = []
        while let row = try reader.next() { read.append(row.map { $0.map { String(decoding: $0, as: UTF8.self) } }) }
        // CSVFormat writes an empty string as an empty field: it reads back as nil, as the CSV cannot tell them apart.
        #expect(read == Self.rows.map { $0.map { $0 == "" ? nil : $0 } })
    }

    @Test func theLastRowMayLackItsNewline() throws {
        var reader = CSVRowReader(source: MemoryByteSource(bytes: Array("a,b\n\"c\",d".utf8)))
        #expect(try reader.next() == [Array("a".utf8), Array("b".utf8)])
        #expect(try reader.next() == [Array("c".utf8), Array("d".utf8)])
        #expect(try reader.next() == nil)
    }
}
