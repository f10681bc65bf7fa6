import Foundation
import WinbackAppStore
import WinbackIO
import WinbackJobs
import WinbackSampleData

/// `winback bench --gzip MB`: our writer (zlib) and reader (ISA-L's igzip) on report-like CSV text, one
/// core: deflate at level 6 (what the reports use) and level 1, and inflate, in MB/s of uncompressed bytes.
public enum GzipBenchmark {
    /// `megabytes` of rows shaped like `subscriptions.csv` (ids, instants, products, counts), deterministic.
    static func csv(megabytes: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        var text: [UInt8] = []
        text.reserveCapacity(megabytes << 20 + 512)
        let products = ["com.example.winback.monthly", "com.example.winback.annual", "com.example.winback.pro.monthly"]
        let statuses = ["active", "expired", "billing_retry", "revoked"]
        while text.count < megabytes << 20 {
            let id = 2_000_000_900_000_000 + random.next() % 10_000_000
            let start = 1_700_000_000_000 + Int64(random.next() % 60_000_000_000)
            let token = "00000000-0000-4000-8000-" + String(random.next() % 1_000_000_000_000, radix: 16)
            let row =
                "\(id),\(token),\(id + 7),21440001,\(products[Int(random.next() % 3)]),USA,PURCHASED,\(statuses[Int(random.next() % 4)]),"
                + "\(InstantFormat.iso8601(milliseconds: start)),\(InstantFormat.iso8601(milliseconds: start + 2_592_000_000)),,,1,,0,false,,"
                + "\(random.next() % 40),\(random.next() % 1200),\(random.next() % 400),,,,com.example.winback.monthly\n"
            text.append(contentsOf: row.utf8)
        }
        return text
    }

    /// Deflates and inflates `megabytes` of report-like CSV; returns a JSON line.
    public static func run(megabytes: Int) throws -> String {
        let input = csv(megabytes: max(1, megabytes), seed: 42)
        var fields: [(String, JSONValue)] = [("benchmark", .string("gzip")), ("inputBytes", .integer(Int64(input.count)))]
        var compressed: [UInt8] = []
        for level: Int32 in [6, 1] {
            let start = DispatchTime.now().uptimeNanoseconds
            let output = try GzipWriter.compress(input, level: level)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            fields.append(("deflateLevel\(level)MBPerSecond", .integer(Int64(Double(input.count) / 1e6 / seconds))))
            fields.append(("deflateLevel\(level)Ratio", .double((Double(input.count) / Double(output.count) * 10).rounded() / 10)))
            if level == 6 { compressed = output }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        let reader = try GzipReader(source: MemoryByteSource(bytes: compressed))
        var buffer = [UInt8](repeating: 0, count: 1 << 18)
        var total = 0
        while true {
            let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            if count == 0 { break }
            total += count
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard total == input.count else { throw JobError.internalError("gzip round trip gave \(total) bytes, expected \(input.count)") }
        fields.append(("inflateMBPerSecond", .integer(Int64(Double(total) / 1e6 / seconds))))
        return JSONText.render(JSONText.object(fields))
    }
}
