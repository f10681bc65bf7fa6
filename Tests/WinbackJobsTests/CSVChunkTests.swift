import Testing
import WinbackAnalytics

@testable import WinbackJobs

/// The field finder under the Parquet twin: what ``CSVFormat`` writes splits back field for field, whatever the
/// fields' lengths against its 64-byte blocks, and a chunk that is not whole rows of the table's width is
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

    /// Every field length from 0 to 150 next to others, some quoted with a comma or quote inside: separators at
    /// every offset of the 64-byte blocks the scan reads, and quoted fields across them.
    @Test func everyFieldLengthSplits() throws {
        let rows = (0...150).map { length -> [String?] in
            let quoted = length % 3 == 0 ? "q\"" + String(repeating: ",", count: length % 70) : "plain"
            return [String(repeating: "a", count: length), String(repeating: "-", count: 150 - length), quoted, String(length)]
        }
        let chunk = try CSVChunk(Array(rows.map(CSVFormat.line).joined().utf8), columns: 4)
        #expect(Self.fields(chunk) == rows.map { $0.map { $0 ?? "" } })
        // The same splitter, reused for a smaller chunk, holds only that chunk's rows.
        var reused = chunk
        try reused.split(Array("x,y,z,1\n".utf8))
        #expect(Self.fields(reused) == [["x", "y", "z", "1"]])
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
