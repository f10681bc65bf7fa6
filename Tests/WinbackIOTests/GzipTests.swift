import Foundation
import Testing
import WinbackIO

@Suite struct GzipTests {
    /// Every inflate engine this process can use: zlib always, ISA-L where libisal is installed.
    static let engines = GzipReader.Engine.allCases.filter(\.isAvailable)

    static func readAll(_ source: inout some ByteSource) throws -> [UInt8] {
        var output: [UInt8] = []
        while try source.read(into: &output, maximumCount: 1000) > 0 {}
        return output
    }

    @Test(arguments: engines)
    func roundTripsThroughZlib(engine: GzipReader.Engine) throws {
        let text = Array((0..<5000).map { "line \($0) \(String(repeating: "x", count: $0 % 50))\n" }.joined().utf8)
        let compressed = try GzipWriter.compress(text)
        var reader = try GzipReader(source: MemoryByteSource(bytes: compressed, chunk: 333), engine: engine)
        #expect(try Self.readAll(&reader) == text)
    }

    @Test func headerHasNoTimestampSoOutputIsReproducible() throws {
        let compressed = try GzipWriter.compress(Array("same".utf8))
        #expect(Array(compressed[0..<3]) == [0x1F, 0x8B, 0x08])
        #expect(Array(compressed[4..<8]) == [0, 0, 0, 0])
        #expect(compressed == (try GzipWriter.compress(Array("same".utf8))))
    }

    @Test(arguments: engines)
    func concatenatedMembersAreOneStream(engine: GzipReader.Engine) throws {
        let joined = try GzipWriter.compress(Array("a\n".utf8)) + (try GzipWriter.compress(Array("b\n".utf8)))
        var reader = try GzipReader(source: MemoryByteSource(bytes: joined, chunk: 7), engine: engine)
        #expect(try Self.readAll(&reader) == Array("a\nb\n".utf8))
    }

    /// Members of every size, read in chunks that end inside headers, data and trailers: igzip must hand
    /// back the bytes after a member's trailer, or the next member is lost.
    @Test(arguments: engines, [1, 5, 64, 4096, 1 << 18])
    func manyMembersReadInAnyChunkSize(engine: GzipReader.Engine, chunk: Int) throws {
        var joined: [UInt8] = []
        var expected: [UInt8] = []
        for member in 0..<12 {
            let text = Array((0..<(member * member * 40)).map { "{\"member\": \(member), \"n\": \($0)}\n" }.joined().utf8)
            joined += try GzipWriter.compress(text)
            expected += text
        }
        var reader = try GzipReader(source: MemoryByteSource(bytes: joined, chunk: chunk), engine: engine)
        #expect(try Self.readAll(&reader) == expected)
    }

    /// Damage that a length-only check would miss: a changed CRC, a changed length, a changed data byte,
    /// and bytes after the last member that are not another member.
    @Test(
        arguments: engines,
        [
            ("crc", -8), ("length", -2), ("data", 40), ("trailing garbage", 0),
        ])
    func corruptStreamThrowsDamage(engine: GzipReader.Engine, damage: (what: String, offset: Int)) throws {
        let (what, offset) = damage
        let text = Array((0..<400).map { "{\"n\": \($0), \"text\": \"\(String(repeating: "ab", count: $0 % 9))\"}\n" }.joined().utf8)
        var compressed = try GzipWriter.compress(text)
        if what == "trailing garbage" {
            compressed += Array("these bytes are not another gzip member".utf8)
        } else {
            compressed[offset < 0 ? compressed.count + offset : offset] ^= 0x5A
        }
        var reader = try GzipReader(source: MemoryByteSource(bytes: compressed, chunk: 97), engine: engine)
        var output: [UInt8] = []
        #expect {
            while try reader.read(into: &output, maximumCount: 1000) > 0 {}
        } throws: { error in
            String(describing: error).contains("gzip stream corrupt")
        }
        #expect(output.count <= text.count)
        #expect(try reader.read(into: &output, maximumCount: 1000) == 0)
    }

    @Test(arguments: engines)
    func truncatedStreamDeliversWhatDecodedThenThrowsDamage(engine: GzipReader.Engine) throws {
        let text = Array((0..<2000).map { "{\"n\": \($0)}\n" }.joined().utf8)
        let compressed = try GzipWriter.compress(text)
        var lines = LineReader(
            source: try GzipReader(
                source: MemoryByteSource(bytes: Array(compressed.prefix(compressed.count / 2)), chunk: 64), engine: engine))
        var count = 0
        while lines.nextLine({ _ in () }) != nil { count += 1 }
        #expect(count > 0 && count < 2000)
        #expect(lines.damage is StreamDamage)
        #expect(String(describing: lines.damage ?? IOError(path: "", reason: "")).contains("truncated"))
    }
}

@Suite struct LineReaderTests {
    static func lines(_ text: [UInt8], chunk: Int = 3) -> [String] {
        var reader = LineReader(source: MemoryByteSource(bytes: text, chunk: chunk))
        var lines: [String] = []
        while let line = reader.nextLine({ String(decoding: $0, as: UTF8.self) }) { lines.append("\(reader.lineNumber):\(line)") }
        return lines
    }

    @Test func crlfBomAndBlankLines() {
        #expect(Self.lines([0xEF, 0xBB, 0xBF] + Array("a\r\n\r\nb\n  \nc".utf8)) == ["1:a", "2:", "3:b", "4:  ", "5:c"])
    }

    /// Batches hold the same lines, numbers and bytes as splitting the text, whatever the read size and
    /// the line limit, never more lines than the limit and never an empty batch.
    @Test(arguments: [(1, 1), (3, 7), (7, 256), (4096, 3), (1 << 20, 256)])
    func batchesHoldEveryLineInOrder(chunk: Int, maximumLines: Int) {
        var random = SystemRandomNumberGenerator()
        var text: [UInt8] = [0xEF, 0xBB, 0xBF]
        var expected: [String] = []
        for number in 1...500 {
            let line = String(repeating: "abcdefghij", count: Int.random(in: 0...(number % 7 == 0 ? 900 : 30), using: &random))
            expected.append("\(number):\(line)")
            text += Array(line.utf8) + Array((number % 3 == 0 ? "\r\n" : "\n").utf8)
        }
        text += Array("last".utf8)
        expected.append("501:last")
        var reader = LineReader(source: MemoryByteSource(bytes: text, chunk: chunk))
        var found: [String] = []
        var batchSizes: [Int] = []
        while let batch = reader.nextBatch(maximumLines: maximumLines) {
            batchSizes.append(batch.lines.count)
            found += batch.lines.map { "\($0.number):\(String(decoding: batch.bytes[$0.range], as: UTF8.self))" }
            #expect(reader.lineNumber == batch.lines.last?.number)
        }
        #expect(found == expected)
        #expect(batchSizes.allSatisfy { $0 >= 1 && $0 <= maximumLines })
        #expect(reader.damage == nil && reader.nextBatch(maximumLines: maximumLines) == nil)
    }

    /// A batch fills its buffer: what it hands over beyond its last line (copied into the next batch) is
    /// less than one line, and every batch but the last holds most of ``LineReader/batchCapacity``.
    @Test func batchesFillTheirBufferAndCarryLessThanALine() {
        let line = Array(String(repeating: "x", count: 2999).utf8) + [UInt8(ascii: "\n")]
        let text = Array([[UInt8]](repeating: line, count: 3000).joined())
        var reader = LineReader(source: MemoryByteSource(bytes: text, chunk: 1 << 20))
        var batches: [LineBatch] = []
        while let batch = reader.nextBatch(maximumLines: 100_000) { batches.append(batch) }
        #expect(batches.reduce(0) { $0 + $1.lines.count } == 3000)
        for batch in batches.dropLast() {
            #expect(batch.bytes.count - batch.lines[batch.lines.count - 1].range.upperBound - 1 < line.count)
            #expect(batch.bytes.count > LineReader.batchCapacity - (1 << 18))
        }
    }

    /// A source of `count` bytes of `x` and then `tail`, made as it is read (nothing held in memory).
    struct GeneratedSource: ByteSource {
        var remaining: Int
        var tail: [UInt8]

        mutating func read(into destination: UnsafeMutableRawBufferPointer) throws -> Int {
            if remaining > 0 {
                let count = min(remaining, destination.count)
                destination.baseAddress?.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "x"), count: count)
                remaining -= count
                return count
            }
            let count = min(tail.count, destination.count)
            for index in 0..<count { destination[index] = tail[index] }
            tail.removeFirst(count)
            return count
        }
    }

    /// A line over the limit comes back as its first bytes, flagged with its whole length; the lines around
    /// it are intact, whatever the read size.
    @Test(arguments: [1, 7, 4096, 1 << 20])
    func overLongLinesAreFlaggedAndReadingResumes(chunk: Int) {
        let long = String(repeating: "y", count: 50_000)
        let text = Array("first\n\(long)\r\nthird\n".utf8)
        var reader = LineReader(source: MemoryByteSource(bytes: text, chunk: chunk), maximumLineBytes: 10_000)
        var lines: [String] = []
        var overlong: [Int: Int] = [:]
        while let batch = reader.nextBatch(maximumLines: 100) {
            lines += batch.lines.map { "\($0.number):\(batch.bytes[$0.range].count)" }
            overlong.merge(batch.overlongLines) { a, _ in a }
        }
        #expect(lines == ["1:5", "2:\(LineReader.overlongPrefixBytes)", "3:5"])
        #expect(overlong == [2: 50_000])
    }

    /// A stream of hundreds of megabytes without a newline is read in bounded memory: one flagged line.
    @Test func aNewlineFreeStreamIsOneFlaggedLineInBoundedMemory() {
        let size = 300 << 20
        var reader = LineReader(source: GeneratedSource(remaining: size, tail: Array("\nafter\n".utf8)), maximumLineBytes: 1 << 20)
        let first = reader.nextBatch(maximumLines: 100)
        #expect(first?.overlongLines == [1: size])
        #expect(first?.bytes.count == LineReader.overlongPrefixBytes)
        let second = reader.nextBatch(maximumLines: 100)
        #expect(second.map { String(decoding: $0.bytes[$0.lines[0].range], as: UTF8.self) } == "after")
    }

    @Test func aTenMegabyteLineIsOneLine() {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 10_000_000)
        var reader = LineReader(source: MemoryByteSource(bytes: Array("first\n".utf8) + long + Array("\nlast\n".utf8), chunk: 1 << 20))
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
        #expect(
            Glob.expand("a/**/*.ndjson", in: base).map(\.relativePath) == ["a/B.ndjson", "a/b/c/z.ndjson", "a/b/y.ndjson", "a/x.ndjson"])
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

@Suite struct InflateEngineTests {
    /// Where ISA-L's header and library are both installed (CI installs libisal-dev), the build must pick
    /// ISA-L, so the engine tests above run through both engines there.
    @Test func isalIsPreferredWhereInstalled() {
        let installed = ["/usr/include/isa-l/igzip_lib.h", "/usr/lib/x86_64-linux-gnu/libisal.so.2"].allSatisfy {
            FileManager.default.fileExists(atPath: $0)
        }
        let chosenByEnvironment = ProcessInfo.processInfo.environment["WINBACK_INFLATER"] != nil
        if installed && !chosenByEnvironment {
            #expect(GzipReader.Engine.preferred == .isal)
        }
        #expect(GzipReader.Engine.zlib.isAvailable)
    }
}
