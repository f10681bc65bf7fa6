import Testing
import WinbackCore

@testable import WinbackJobs

/// The field finder under the Parquet twin: what ``CSVFormat`` writes splits back field for field, whatever the
/// fields' lengths against its eight-byte scan, and a chunk that is not whole rows of the table's width is
/// refused naming the row.
@Suite struct CSVChunkTests {
    static func fields(_ chunk: CSVChunk) -> [[String]] {
        chunk.withFields { fields in
            (0..<chunk.rows).map { row in (0..<chunk.columns).map { String(decoding: fields[row, $0], as: UTF8.self) } }
        }
    }

    @Test func splitsWhatCSVFormatWrites() throws {
        let rows: [[String?]] = [
            ["plain", nil, "1"],
            ["a,comma", "a \"quote\"", "line\nbreak"],
            ["", "\"", "é ünicode"],
            [nil, nil, nil],
            [String(repeating: "x", count: 5_000), "after a long field", "-12,5"],
        ]
        let chunk = try CSVChunk(Array(rows.map(CSVFormat.line).joined().utf8), columns: 3)
        #expect(chunk.rows == rows.count)
        // An empty string and a null are both an empty field.
        #expect(Self.fields(chunk) == rows.map { $0.map { $0 ?? "" } })
    }

    /// Every field length from 0 to 20 next to every other: separators at every offset of the eight-byte words.
    @Test func everyFieldLengthSplits() throws {
        let rows = (0...20).map { length in
            [String(repeating: "a", count: length), String(repeating: "-", count: 20 - length), String(length)]
        }
        let chunk = try CSVChunk(Array(rows.map(CSVFormat.line).joined().utf8), columns: 3)
        #expect(Self.fields(chunk) == rows)
    }

    @Test(arguments: [
        ("a,b\nc\n", 2, "row 2: 1 fields for 2 columns"),
        ("a,b\nc,d", 2, "row 2: the row does not end with a newline"),
        ("a,b\nc,", 2, "row 2: the row does not end with a newline"),
        ("a,b\"c\n", 2, "row 1: a quote in the middle of a field"),
        ("a,\"b\n", 2, "row 1: a quoted field does not end"),
    ])
    func aChunkThatIsNotWholeRowsIsRefused(_ text: String, _ columns: Int, _ expected: String) {
        do {
            _ = try CSVChunk(Array(text.utf8), columns: columns)
            Issue.record("\(text) should be refused")
        } catch {
            #expect("row \(error.row): \(error.reason)" == expected)
        }
    }
}
