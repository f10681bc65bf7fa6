/// The fields of a chunk of whole CSV rows (RFC 4180 as ``CSVFormat`` writes it: a field is quoted when it holds
/// a quote, comma or newline, `""` inside quotes is one quote), found in one pass: each field is a range of
/// ``bytes``, a quoted field's text unquoted and appended after the rows. An empty field is an empty range.
struct CSVChunk {
    /// Why a chunk could not be split into rows of the table's fields.
    struct Failure: Error {
        /// The row (from 1, in this chunk) the problem is on.
        var row: Int
        /// What is wrong with it.
        var reason: String
    }

    /// The rows' bytes, then the unquoted text of quoted fields.
    private(set) var bytes: [UInt8]
    /// Each field's start and end offset in ``bytes``, row after row, `columns` fields per row.
    private var bounds: [Int32] = []
    /// Fields per row.
    let columns: Int
    /// The number of rows.
    private(set) var rows = 0

    /// The fields of `rows`, whole rows each ending in a newline, `columns` fields per row.
    init(_ rows: [UInt8], columns: Int) throws(Failure) {
        bytes = rows
        self.columns = columns
        bounds.reserveCapacity(2 * columns * max(1, rows.count / 64))
        let count = rows.count
        var unquoted: [UInt8] = []
        var bounds = bounds
        var rowCount = 0
        let failure: Failure? = rows.withUnsafeBufferPointer { bytes -> Failure? in
            var index = 0
            while index < count {
                rowCount += 1
                var fields = 0
                while true {
                    guard index < count else { return Failure(row: rowCount, reason: "the row does not end with a newline") }
                    if bytes[index] == 0x22 {
                        // A quoted field: its text, `""` read as `"`, goes after the rows.
                        let start = count + unquoted.count
                        index += 1
                        while true {
                            guard index < count else { return Failure(row: rowCount, reason: "a quoted field does not end") }
                            let byte = bytes[index]
                            index += 1
                            if byte == 0x22 {
                                guard index < count, bytes[index] == 0x22 else { break }
                                index += 1
                            }
                            unquoted.append(byte)
                        }
                        bounds.append(Int32(truncatingIfNeeded: start))
                        bounds.append(Int32(truncatingIfNeeded: count + unquoted.count))
                    } else {
                        let start = index
                        index = Self.nextSeparator(in: bytes, from: index)
                        bounds.append(Int32(truncatingIfNeeded: start))
                        bounds.append(Int32(truncatingIfNeeded: index))
                    }
                    fields += 1
                    guard index < count else { return Failure(row: rowCount, reason: "the row does not end with a newline") }
                    let separator = bytes[index]
                    index += 1
                    if separator == 0x0A { break }
                    guard separator == 0x2C else { return Failure(row: rowCount, reason: "a quote in the middle of a field") }
                }
                guard fields == columns else { return Failure(row: rowCount, reason: "\(fields) fields for \(columns) columns") }
            }
            return nil
        }
        if let failure { throw failure }
        self.bounds = bounds
        self.rows = rowCount
        bytes += unquoted
    }

    /// The first index from `start` on holding a comma, newline or quote, or `bytes.count`. Eight bytes at a
    /// time: fields are short, but a row has dozens of them.
    private static func nextSeparator(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        let raw = UnsafeRawBufferPointer(bytes)
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let found = zeroBytes(word ^ commas) | zeroBytes(word ^ newlines) | zeroBytes(word ^ quotes)
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < bytes.count, bytes[index] != 0x2C, bytes[index] != 0x0A, bytes[index] != 0x22 { index += 1 }
        return index
    }

    private static let commas: UInt64 = 0x2C2C_2C2C_2C2C_2C2C
    private static let newlines: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
    private static let quotes: UInt64 = 0x2222_2222_2222_2222

    /// The high bit of each byte of `word` that is zero, exactly (no borrow from a lower byte).
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((word & low7) &+ low7) | word | low7)
    }

    /// Calls `body` with a reader of the fields, valid while it runs.
    func withFields<T>(_ body: (Fields) throws -> T) rethrows -> T {
        try bytes.withUnsafeBytes { bytes in
            try bounds.withUnsafeBufferPointer { bounds in try body(Fields(bytes: bytes, bounds: bounds, columns: columns)) }
        }
    }

    /// The fields seen through pointers (``withFields(_:)``).
    struct Fields {
        let bytes: UnsafeRawBufferPointer
        let bounds: UnsafeBufferPointer<Int32>
        let columns: Int

        /// The bytes of field `column` of row `row` (from 0); empty for an empty field.
        subscript(row: Int, column: Int) -> UnsafeRawBufferPointer {
            let at = 2 * (row * columns + column)
            return UnsafeRawBufferPointer(rebasing: bytes[Int(bounds[at])..<Int(bounds[at + 1])])
        }
    }
}
