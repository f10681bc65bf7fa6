import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackIO
import WinbackJobs

/// `winback bench --parquet DAY`: for every CSV table of a published day (its schema from `_manifest.json`), the
/// cost on one core of each format's own work on the same rows: deflating the CSV text at the table's gzip level,
/// and the Parquet twin's whole conversion (fields split, typed, encoded, pages deflated, file written), fed
/// 64 KiB chunks of rows as the CSV writer feeds it. Building
/// the rows from the model, which both share, is not in either. Sizes are the published CSV's and the Parquet
/// file's. One JSON line per table, then a total.
public enum ParquetBenchmark {
    /// The JSON lines for the day in `day`, Parquet files written into `directory`.
    public static func run(day: String, directory: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let manifest = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: day + "/_manifest.json"))))
        guard case .array(let outputs)? = manifest["outputs"] else {
            throw JobError.internalError("\(day)/_manifest.json lists no outputs")
        }
        var lines: [String] = []
        var totals = (rows: 0, csvBytes: 0, parquetBytes: 0, csvSeconds: 0.0, parquetSeconds: 0.0)
        for output in outputs.map(\.value) {
            guard let name = output["name"]?.stringValue, name.hasSuffix(".csv.gz"), case .array(let columns)? = output["schema"] else {
                continue
            }
            let schema = ReportSchema(
                name: name,
                columns: columns.map(\.value).compactMap { column in
                    guard let name = column["name"]?.stringValue, let type = column["type"]?.stringValue.flatMap(ColumnType.init) else {
                        return nil
                    }
                    return (name, type)
                })
            let text = try inflated(day + "/" + name)
            let rows = Array(text.drop { $0 != 0x0A }.dropFirst())
            let csvSeconds = try seconds { _ = try GzipWriter.compress(text, level: ReportFileWriter.gzipLevel(schema)) }
            var stats: OutputStats?
            let parquetSeconds = try seconds {
                // Sized as the run sizes it: the subscriptions' count is known, the other tables' are not.
                let expected = name == ReportSchema.subscriptions.name ? rows.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } : nil
                let conversion = try ParquetConversion(schema: schema, directory: directory, expectedRows: expected)
                // In chunks of whole rows of at least 64 KiB, as the CSV writer hands them to the twin.
                var start = 0
                while start < rows.count {
                    var end = min(start + (1 << 16), rows.count)
                    while end < rows.count, rows[end - 1] != 0x0A { end += 1 }
                    try conversion.append(csvRows: Array(rows[start..<end]))
                    start = end
                }
                stats = try conversion.finish()
            }
            guard let stats else { continue }
            let csvBytes = (try FileManager.default.attributesOfItem(atPath: day + "/" + name)[.size] as? Int) ?? 0
            totals.rows += stats.rows
            totals.csvBytes += csvBytes
            totals.parquetBytes += stats.bytes
            totals.csvSeconds += csvSeconds
            totals.parquetSeconds += parquetSeconds
            lines.append(line(table: String(name.dropLast(".csv.gz".count)), stats.rows, csvBytes, stats.bytes, csvSeconds, parquetSeconds))
        }
        lines.append(line(table: "all", totals.rows, totals.csvBytes, totals.parquetBytes, totals.csvSeconds, totals.parquetSeconds))
        return lines
    }

    private static func line(
        table: String, _ rows: Int, _ csvBytes: Int, _ parquetBytes: Int, _ csvSeconds: Double, _ parquetSeconds: Double
    )
        -> String
    {
        func milliseconds(_ seconds: Double) -> JSONValue { .double((seconds * 10_000).rounded() / 10) }
        return JSONText.render(
            JSONText.object([
                ("benchmark", .string("parquet")), ("table", .string(table)), ("rows", .integer(Int64(rows))),
                ("csvGzipBytes", .integer(Int64(csvBytes))), ("parquetBytes", .integer(Int64(parquetBytes))),
                ("csvDeflateMilliseconds", milliseconds(csvSeconds)), ("parquetMilliseconds", milliseconds(parquetSeconds)),
            ]))
    }

    private static func seconds(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private static func inflated(_ path: String) throws -> [UInt8] {
        var reader = try GzipReader(source: try FileByteSource(path: path))
        var text: [UInt8] = []
        while try reader.read(into: &text, maximumCount: 1 << 20) > 0 {}
        return text
    }
}
