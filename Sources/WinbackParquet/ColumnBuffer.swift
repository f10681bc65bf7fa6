#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        switch value {
        case nil:
            appendNull()
            return true
        case .integer(let integer)?: return appendInteger(integer)
        case .bytes(let bytes)?: return bytes.withUnsafeBytes { appendBytes($0) }
        case .boolean(let flag)?: return appendBoolean(flag)
        }
    }

    /// Adds a null.
    mutating func appendNull() {
        if count % 8 == 0 { definitionLevels.append(0) }
        count += 1
        nulls += 1
    }

    /// Marks the next value present.
    private mutating func markPresent() {
        let bit = count % 8
        if bit == 0 { definitionLevels.append(0) }
        definitionLevels[definitionLevels.count - 1] |= 1 << bit
        count += 1
    }

    /// Adds an INT64 (or a decimal's unscaled value, a timestamp's milliseconds, a date's days); `false` when
    /// the column holds another kind or a date does not fit INT32.
    mutating func appendInteger(_ integer: Int64) -> Bool {
        switch type {
        case .date:
            guard let day = Int32(exactly: integer) else { return false }
            markPresent()
            withUnsafeBytes(of: day.littleEndian) { values.append(contentsOf: $0) }
        case .int64, .decimal, .timestampMillis:
            markPresent()
            withUnsafeBytes(of: integer.littleEndian) { values.append(contentsOf: $0) }
        case .string, .boolean:
            return false
        }
        if integer < minimumInteger ?? .max { minimumInteger = integer }
        if integer > maximumInteger ?? .min { maximumInteger = integer }
        return true
    }

    /// Adds a string's UTF-8 bytes; `false` when the column is not a string column.
    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard type == .string else { return false }
        markPresent()
        withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { values.append(contentsOf: $0) }
        values.append(contentsOf: bytes)
        if minimumBytes.map({ Self.compare(bytes, $0) < 0 }) ?? true { minimumBytes = Array(bytes) }
        if maximumBytes.map({ Self.compare(bytes, $0) > 0 }) ?? true { maximumBytes = Array(bytes) }
        return true
    }

    /// Adds a boolean; `false` when the column is not BOOLEAN.
    mutating func appendBoolean(_ flag: Bool) -> Bool {
        guard type == .boolean else { return false }
        markPresent()
        booleans.append(flag)
        let integer: Int64 = flag ? 1 : 0
        if integer < minimumInteger ?? .max { minimumInteger = integer }
        if integer > maximumInteger ?? .min { maximumInteger = integer }
        return true
    }

    /// Unsigned byte order (Parquet's order for strings): negative, zero or positive.
    private static func compare(_ left: UnsafeRawBufferPointer, _ right: [UInt8]) -> Int {
        right.withUnsafeBytes { right in
            let common = Swift.min(left.count, right.count)
            if common > 0, let a = left.baseAddress, let b = right.baseAddress {
                let order = Int(memcmp(a, b, common))
                if order != 0 { return order }
            }
            return left.count - right.count
        }
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
