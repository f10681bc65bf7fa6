import WinbackAnalytics
import WinbackIO

/// Writes one of a partial's record files (docs/sharding.md): gzip of records, each a fixed number of fields,
/// each field its length (4 bytes, little-endian) and its bytes. Any byte may appear in a field, so the
/// records need no escaping; the file's size and SHA-256 go into `partial.json`.
struct PartialRecordWriter {
    private let file: ReportFileWriter
    /// zlib level 1: a partial lives for one night and is read once, so deflate's CPU matters more than its size.
    static let level: Int32 = 1

    /// Creates `directory/name`.
    init(directory: String, name: String) throws(IOError) {
        file = try ReportFileWriter(directory: directory, schema: ReportSchema(name: name, columns: []), isCSV: false, level: Self.level)
    }

    /// Appends one record of `fields`.
    func append(_ fields: [[UInt8]]) throws(IOError) {
        try file.write { bytes in
            for field in fields { Self.appendField(field, to: &bytes) }
        }
    }

    /// Appends `field` with its length.
    private static func appendField(_ field: some Collection<UInt8>, to bytes: inout [UInt8]) {
        let count = UInt32(field.count)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: count >> UInt32(shift))) }
        bytes.append(contentsOf: field)
    }

    /// Ends the file; its size, SHA-256 and record count.
    func finish() throws(IOError) -> OutputStats { try file.finish() }
}
