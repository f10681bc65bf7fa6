import Foundation
import Testing
import WinbackIO
import WinbackTestSupport

/// Direct reads (`O_DIRECT`, whole aligned chunks copied out of the source's own buffer) deliver the
/// file's bytes exactly as plain reads do, whatever size the reader asks for, and a file system without
/// direct I/O gets plain reads.
@Suite struct FileByteSourceTests {
    /// Three chunks and an unaligned tail, so the last direct read is short.
    static let bytes: [UInt8] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<(3 * FileByteSource.directChunkSize + 12_345)).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }()

    static func readAll(_ source: FileByteSource, askingFor size: Int) throws -> [UInt8] {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: size)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { return output }
            output += buffer[..<count]
        }
    }

    @Test(arguments: [4095, 65_536, FileByteSource.directChunkSize, 3 * FileByteSource.directChunkSize + 99])
    func directReadsDeliverTheFile(askingFor size: Int) throws {
        let file = try CommandRunner.temporaryDirectory("direct").appendingPathComponent("input.bin")
        try Data(Self.bytes).write(to: file)
        let direct = try FileByteSource(path: file.path, direct: true)
        #expect(try Self.readAll(direct, askingFor: size) == Self.bytes)
        let plain = try FileByteSource(path: file.path)
        #expect(!plain.isDirect)
        #expect(try Self.readAll(plain, askingFor: size) == Self.bytes)
    }

    /// A small file of the temporary directory's file system, opened for direct reads.
    static func directSource(_ bytes: ArraySlice<UInt8>) throws -> FileByteSource {
        let file = try CommandRunner.temporaryDirectory("direct").appendingPathComponent("input.bin")
        try Data(bytes).write(to: file)
        return try FileByteSource(path: file.path, direct: true)
    }

    /// Where the temporary directory is on a disk (this project's machines), the direct path is taken.
    @Test(.enabled(if: (try? directSource(bytes.prefix(1)).isDirect) == true))
    func theTemporaryDirectoryGetsDirectReads() throws {
        let source = try Self.directSource(Self.bytes.prefix(10_000))
        #expect(source.isDirect)
        #expect(try Self.readAll(source, askingFor: 4096) == Array(Self.bytes.prefix(10_000)))
    }

    /// procfs refuses `O_DIRECT` at open (tmpfs accepted it on the 6.18 kernel this was written on).
    @Test(.enabled(if: FileManager.default.isReadableFile(atPath: "/proc/version")))
    func aFileSystemWithoutDirectReadsGetsPlainOnes() throws {
        let source = try FileByteSource(path: "/proc/version", direct: true)
        #expect(!source.isDirect)
        let expected = try Array(Data(contentsOf: URL(fileURLWithPath: "/proc/version")))
        #expect(!expected.isEmpty)
        #expect(try Self.readAll(source, askingFor: 7) == expected)
    }
}
