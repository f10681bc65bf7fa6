import Foundation
import Testing
import WinbackIO

/// A byte source over an in-memory buffer, read in small chunks to exercise chunk boundaries.
struct MemorySource: ByteSource {
    var bytes: [UInt8]
    var offset = 0
    var chunk = 7

    mutating func read(into buffer: inout [UInt8], maximumCount: Int) throws -> Int {
        let count = min(chunk, maximumCount, bytes.count - offset)
        buffer.append(contentsOf: bytes[offset..<offset + count])
        offset += count
        return count
    }
}

@Suite struct GzipTests {
    static func readAll(_ source: inout some ByteSource) throws -> [UInt8] {
        var output: [UInt8] = []
        while try source.read(into: &output, maximumCount: 1000) > 0 {}
        return output
    }

    @Test func roundTripsThroughZlib() throws {
        let text = Array((0..<5000).map { "line \($0) \(String(repeating: "x", count: $0 % 50))\n" }.joined().utf8)
        let compressed = try GzipWriter.compress(text)
        var reader = try GzipReader(source: MemorySource(bytes: compressed, chunk: 333))
        #expect(try Self.readAll(&reader) == text)
    }

    @Test func headerHasNoTimestampSoOutputIsReproducible() throws {
        let compressed = try GzipWriter.compress(Array("same".utf8))
        #expect(Array(compressed[0..<3]) == [0x1F, 0x8B, 0x08])
        #expect(Array(compressed[4..<8]) == [0, 0, 0, 0])
        #expect(compressed == (try GzipWriter.compress(Array("same".utf8))))
    }

    @Test func concatenatedMembersAreOneStream() throws {
        let joined = try GzipWriter.compress(Array("a\n".utf8)) + (try GzipWriter.compress(Array("b\n".utf8)))
        var reader = try GzipReader(source: MemorySource(bytes: joined))
        #expect(try Self.readAll(&reader) == Array("a\nb\n".utf8))
    }

    @Test func truncatedStreamDeliversWhatDecodedThenThrowsDamage() throws {
        let text = Array((0..<2000).map { "{\"n\": \($0)}\n" }.joined().utf8)
        let compressed = try GzipWriter.compress(text)
        var lines = LineReader(source: try GzipReader(source: MemorySource(bytes: Array(compressed.prefix(compressed.count / 2)), chunk: 64)))
        var count = 0
        while lines.nextLine({ _ in () }) != nil { count += 1 }
        #expect(count > 0 && count < 2000)
        #expect(lines.damage is StreamDamage)
        #expect(String(describing: lines.damage ?? IOError(path: "", reason: "")).contains("truncated"))
    }
}

@Suite struct LineReaderTests {
    static func lines(_ text: [UInt8], chunk: Int = 3) -> [String] {
        var reader = LineReader(source: MemorySource(bytes: text, chunk: chunk))
        var lines: [String] = []
        while let line = reader.nextLine({ String(decoding: $0, as: UTF8.self) }) { lines.append("\(reader.lineNumber):\(line)") }
        return lines
    }

    @Test func crlfBomAndBlankLines() {
        #expect(Self.lines([0xEF, 0xBB, 0xBF] + Array("a\r\n\r\nb\n  \nc".utf8)) == ["1:a", "2:", "3:b", "4:  ", "5:c"])
    }

    @Test func aTenMegabyteLineIsOneLine() {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 10_000_000)
        var reader = LineReader(source: MemorySource(bytes: Array("first\n".utf8) + long + Array("\nlast\n".utf8), chunk: 1 << 20))
        var lengths: [Int] = []
        while let length = reader.nextLine({ $0.count }) { lengths.append(length) }
        #expect(lengths == [5, 10_000_000, 4])
    }
}

@Suite struct GlobTests {
    @Test func expandsStarsAndDoubleStarInByteOrder() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("winback-glob-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        for path in ["a/x.ndjson", "a/b/y.ndjson", "a/b/c/z.ndjson", "a/.hidden.ndjson", "a/B.ndjson", "other.json"] {
            let full = base + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: full, contents: Data()))
        }
        #expect(Glob.expand("a/**/*.ndjson", in: base).map(\.relativePath) == ["a/B.ndjson", "a/b/c/z.ndjson", "a/b/y.ndjson", "a/x.ndjson"])
        #expect(Glob.expand("a/?.ndjson", in: base).map(\.relativePath) == ["a/B.ndjson", "a/x.ndjson"])
        #expect(Glob.expand("a/[xy].ndjson", in: base).map(\.relativePath) == ["a/x.ndjson"])
        #expect(Glob.expand("*.json", in: base).map(\.relativePath) == ["other.json"])
        #expect(Glob.expand("nothing/*.json", in: base).isEmpty)
    }

    @Test(arguments: [
        ("x.ndjson", InputFormat.Shape.ndjson, false), ("x.jsonl.gz", .ndjson, true), ("x.json", .document, false),
        ("x.json.gz", .document, true),
    ])
    func formatFollowsTheSuffix(_ path: String, _ shape: InputFormat.Shape, _ isGzip: Bool) {
        #expect(InputFormat(path: path) == InputFormat(shape: shape, isGzip: isGzip))
    }

    @Test(arguments: ["x.csv", "x.JSON", "x.gz", "x.ndjson.bz2"])
    func otherSuffixesAreNotInputs(_ path: String) {
        #expect(InputFormat(path: path) == nil)
    }
}
