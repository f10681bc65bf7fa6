/// One column's values of the row group being built, with its statistics, and their encoding as a v1
/// data page: the definition levels (1 present, 0 null) as a bit-packed run of the RLE/bit-packing hybrid,
/// length-prefixed, then the present values PLAIN-encoded.
struct ColumnBuffer {
    /// Null count and the PLAIN bytes of the smallest and largest value (a string's bytes without length).
    struct Statistics {
        var nulls = 0
        var min: [UInt8]?
        var max: [UInt8]?
    }

    let type: ParquetColumnType
    /// Values (rows) in the buffer, nulls included.
    private(set) var count = 0
    private var definitionLevels: [UInt8] = []
    private var values: [UInt8] = []
    private var booleans: [Bool] = []
    private var nulls = 0
    private var minimumInteger: Int64?
    private var maximumInteger: Int64?
    private var minimumBytes: [UInt8]?
    private var maximumBytes: [UInt8]?

    init(type: ParquetColumnType) {
        self.type = type
    }

    /// Adds a value; `false` when its kind does not fit the column.
    mutating func append(_ value: ParquetValue?) -> Bool {
        let bit = count % 8
        if bit == 0 { definitionLevels.append(0) }
        defer { count += 1 }
        guard let value else {
            nulls += 1
            return true
        }
        definitionLevels[definitionLevels.count - 1] |= 1 << bit
        switch (type, value) {
        case (.string, .bytes(let bytes)):
            Self.appendLittleEndian(UInt64(bytes.count), width: 4, to: &values)
            values += bytes
            if minimumBytes.map({ bytes.lexicographicallyPrecedes($0) }) ?? true { minimumBytes = bytes }
            if maximumBytes.map({ $0.lexicographicallyPrecedes(bytes) }) ?? true { maximumBytes = bytes }
        case (.date, .integer(let days)):
            guard let day = Int32(exactly: days) else { return false }
            Self.appendLittleEndian(UInt64(UInt32(bitPattern: day)), width: 4, to: &values)
            track(days)
        case (.int64, .integer(let integer)), (.decimal, .integer(let integer)), (.timestampMillis, .integer(let integer)):
            Self.appendLittleEndian(UInt64(bitPattern: integer), width: 8, to: &values)
            track(integer)
        case (.boolean, .boolean(let flag)):
            booleans.append(flag)
            track(flag ? 1 : 0)
        default:
            // The wrong kind for the column: the row is refused (the writer throws), so nothing else is undone.
            return false
        }
        return true
    }

    private mutating func track(_ integer: Int64) {
        minimumInteger = Swift.min(minimumInteger ?? integer, integer)
        maximumInteger = Swift.max(maximumInteger ?? integer, integer)
    }

    private static func appendLittleEndian(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        for shift in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift)))) }
    }

    /// The page's bytes before compression.
    func encodedPage() -> [UInt8] {
        var levels: [UInt8] = []
        // One bit-packed run: header (groups of 8 << 1 | 1), then a byte per group (bit width 1).
        var header = UInt64(definitionLevels.count) << 1 | 1
        while header >= 0x80 {
            levels.append(UInt8(header & 0x7F) | 0x80)
            header >>= 7
        }
        levels.append(UInt8(header))
        levels += definitionLevels
        var page: [UInt8] = []
        Self.appendLittleEndian(UInt64(levels.count), width: 4, to: &page)
        page += levels
        if type == .boolean {
            var packed = [UInt8](repeating: 0, count: (booleans.count + 7) / 8)
            for (index, flag) in booleans.enumerated() where flag { packed[index / 8] |= 1 << (index % 8) }
            page += packed
        } else {
            page += values
        }
        return page
    }

    /// The chunk's statistics, min and max PLAIN-encoded as Parquet's `min_value` / `max_value` want them.
    var statistics: Statistics {
        var statistics = Statistics(nulls: nulls)
        switch type {
        case .string:
            statistics.min = minimumBytes
            statistics.max = maximumBytes
        case .date:
            statistics.min = minimumInteger.map { Self.littleEndian(UInt64(UInt32(bitPattern: Int32(truncatingIfNeeded: $0))), width: 4) }
            statistics.max = maximumInteger.map { Self.littleEndian(UInt64(UInt32(bitPattern: Int32(truncatingIfNeeded: $0))), width: 4) }
        case .boolean:
            statistics.min = minimumInteger.map { [UInt8($0)] }
            statistics.max = maximumInteger.map { [UInt8($0)] }
        case .int64, .decimal, .timestampMillis:
            statistics.min = minimumInteger.map { Self.littleEndian(UInt64(bitPattern: $0), width: 8) }
            statistics.max = maximumInteger.map { Self.littleEndian(UInt64(bitPattern: $0), width: 8) }
        }
        return statistics
    }

    private static func littleEndian(_ value: UInt64, width: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        appendLittleEndian(value, width: width, to: &bytes)
        return bytes
    }
}
