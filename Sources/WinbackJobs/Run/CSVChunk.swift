/// The fields of a chunk of whole CSV rows (RFC 4180 as ``CSVFormat`` writes it: a field is quoted when it holds
/// a quote, comma or newline, `""` inside quotes is one quote), found in one pass: each field is a range of
/// ``bytes``, a quoted field's text unquoted and appended after the rows. An empty field is an empty range.
/// One value is reused chunk after chunk (``split(_:)``), so its field table is allocated once.
struct CSVChunk {
    /// Why a chunk could not be split into rows of the table's fields.
    struct Failure: Error {
        /// The row (from 1, in this chunk) the problem is on.
        var row: Int
        /// What is wrong with it.
        var reason: String
    }

    /// The rows' bytes, then the unquoted text of quoted fields.
    private(set) var bytes: [UInt8] = []
    /// Each field's start and end offset in ``bytes``, row after row, `columns` fields per row; room for at
    /// least as many fields as the chunk has bytes (every field ends with a byte of its own, comma or newline).
    private var bounds: [Int32] = []
    /// Fields per row.
    let columns: Int
    /// The number of rows.
    private(set) var rows = 0

    /// A splitter of rows of `columns` fields, holding no rows yet.
    init(columns: Int) {
        self.columns = columns
    }

    /// The fields of `rows`, whole rows each ending in a newline, `columns` fields per row.
    init(_ rows: [UInt8], columns: Int) throws(Failure) {
        self.init(columns: columns)
        try split(rows)
    }

    /// Replaces the rows held with `rows`: whole rows each ending in a newline, `columns` fields per row.
    mutating func split(_ rows: [UInt8]) throws(Failure) {
        bytes = rows
        self.rows = 0
        if bounds.count < 2 * rows.count { bounds = [Int32](repeating: 0, count: 2 * rows.count) }
        let count = rows.count
        let columns = columns
        var unquoted: [UInt8] = []
        var rowCount = 0
        let failure: Failure? = rows.withUnsafeBufferPointer { bytes -> Failure? in
            bounds.withUnsafeMutableBufferPointer { bounds -> Failure? in
                var separators = SeparatorScan(bytes)
                var index = 0
                var next = 0  // the next free entry of `bounds`
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
                            bounds[next] = Int32(truncatingIfNeeded: start)
                            bounds[next + 1] = Int32(truncatingIfNeeded: count + unquoted.count)
                        } else {
                            let start = index
                            index = separators.next(from: index)
                            bounds[next] = Int32(truncatingIfNeeded: start)
                            bounds[next + 1] = Int32(truncatingIfNeeded: index)
                        }
                        next += 2
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
        }
        if let failure { throw failure }
        self.rows = rowCount
        if !unquoted.isEmpty { bytes += unquoted }
    }
    /// The commas, newlines and quotes of a chunk, found 64 bytes at a time as the bits of a mask (eight bytes
    /// compared at once, each word's hits packed into a byte), so finding a field's end is a bit scan rather than a
    /// loop over its bytes whose exit the processor cannot predict.
    struct SeparatorScan {
        private let bytes: UnsafeBufferPointer<UInt8>
        /// The offset of the block ``mask`` covers (a multiple of 64).
        private var blockStart = 0
        /// Bit `i` set: byte `blockStart + i` is a comma, newline or quote.
        private var mask: UInt64

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            mask = Self.mask(bytes, at: 0)
        }

        /// The first index from `index` on holding a comma, newline or quote, or the chunk's size.
        mutating func next(from index: Int) -> Int {
            if index >= blockStart + 64 {
                blockStart = index & ~63
                mask = Self.mask(bytes, at: blockStart)
            }
            var found = mask & (~0 << UInt64(index - blockStart))
            while found == 0 {
                blockStart += 64
                guard blockStart < bytes.count else { return bytes.count }
                mask = Self.mask(bytes, at: blockStart)
                found = mask
            }
            return blockStart + found.trailingZeroBitCount
        }

        /// The separators of the 64 bytes from `start` (fewer at the end of the chunk).
        private static func mask(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> UInt64 {
            var mask: UInt64 = 0
            if start + 64 <= bytes.count {
                let raw = UnsafeRawBufferPointer(bytes)
                for word in 0..<8 {
                    // Little-endian: the word's first byte is its lowest.
                    let value = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start + 8 * word, as: UInt64.self))
                    let hits = zeroBytes(value ^ commas) | zeroBytes(value ^ newlines) | zeroBytes(value ^ quotes)
                    // Bits 7, 15, …, 63 to bits 0…7: each lands on its own bit of the top byte, without carries.
                    mask |= (((hits >> 7) &* 0x0102_0408_1020_4080) >> 56) << UInt64(8 * word)
                }
            } else {
                for index in start..<min(start + 64, bytes.count) {
                    let byte = bytes[index]
                    if byte == 0x2C || byte == 0x0A || byte == 0x22 { mask |= 1 << UInt64(index - start) }
                }
            }
            return mask
        }

        private static let commas: UInt64 = 0x2C2C_2C2C_2C2C_2C2C
        private static let newlines: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        private static let quotes: UInt64 = 0x2222_2222_2222_2222

        /// The high bit of each byte of `word` that is zero, exactly (no borrow from a lower byte).
        private static func zeroBytes(_ word: UInt64) -> UInt64 {
            let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
            return ~(((word & low7) &+ low7) | word | low7)
        }
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
