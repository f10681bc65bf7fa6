import Foundation
import Testing
import WinbackAnalytics
import WinbackIO
import WinbackTestSupport

@testable import WinbackJobs

/// A table's Parquet twin, fed the CSV writer's chunks as they are written, makes the file that converting the
/// whole published CSV in one chunk makes, byte for byte, and names a row the column types refuse.
@Suite struct ParquetTwinTests {
    static let schema = ReportSchema(
        name: "twin.csv.gz", columns: [("id", .integer), ("name", .string), ("at", .instant), ("amount", .money), ("flag", .boolean)])

    /// 20 000 rows (several of the writer's 64 KiB chunks): quoted fields with commas, quotes and newlines, nulls.
    static func rows() -> [[String?]] {
        (0..<20_000).map { index in
            [
                String(index), index % 7 == 0 ? nil : "name \(index), \"quoted\"\(index % 11 == 0 ? "\nsecond line" : "")",
                index % 5 == 0 ? nil : "2026-11-\(String(format: "%02d", 1 + index % 28))T06:00:00.000Z",
                index % 3 == 0 ? "-\(index * 125)" : "\(index * 1000)", index % 2 == 0 ? "true" : "false",
            ]
        }
    }

    @Test func theTwinWritesTheFileAOnePassConversionWrites() throws {
        let directory = try CommandRunner.temporaryDirectory("parquet-twin")
        let twinDirectory = directory.appendingPathComponent("twin")
        let backDirectory = directory.appendingPathComponent("back")
        for path in [twinDirectory, backDirectory] { try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true) }

        let writer = try ReportFileWriter(directory: twinDirectory.path, schema: Self.schema, isCSV: true)
        let twin = try ParquetTwin(schema: Self.schema, directory: twinDirectory.path)
        var chunks = 0
        writer.onRows = {
            chunks += 1
            twin.consume($0)
        }
        for row in Self.rows() { try writer.write(row: row) }
        let csv = try writer.finish()
        let twinned = try twin.finish()
        #expect(chunks > 3, "the rows should span several chunks")

        // The same CSV read back whole from its gzip file, converted in one pass.
        let whole = try ParquetConversion(schema: Self.schema, directory: backDirectory.path)
        var source = try GzipReader(source: try FileByteSource(path: twinDirectory.appendingPathComponent(csv.name).path))
        var text: [UInt8] = []
        while try source.read(into: &text, maximumCount: 1 << 20) > 0 {}
        try whole.append(csvRows: Array(text.drop { $0 != 0x0A }.dropFirst()))  // the rows after the header
        let converted = try whole.finish()
        #expect(twinned.rows == 20_000 && csv.rows == 20_000)
        #expect(twinned.sha256 == converted.sha256 && twinned.bytes == converted.bytes)
        let twinBytes = try Data(contentsOf: twinDirectory.appendingPathComponent("twin.parquet"))
        #expect(twinBytes == (try Data(contentsOf: backDirectory.appendingPathComponent("twin.parquet"))))
    }

    @Test func aCellTheTypeRefusesIsNamedWhenTheTwinFinishes() throws {
        let directory = try CommandRunner.temporaryDirectory("parquet-twin-bad")
        let twin = try ParquetTwin(schema: Self.schema, directory: directory.path)
        twin.consume(Array("1,a,,1500,true\n2,b,,not money,false\n".utf8))
        #expect(throws: JobError.self) { try twin.finish() }
        do {
            _ = try twin.finish()
        } catch {
            #expect("\(error)".contains("twin.csv.gz row 2: 'not money' is not a money"), "\(error)")
        }
    }
}
