#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One column's values of the row group being built, with its statistics, and their encoding as a v1 data
/// page: the definition levels (1 present, 0 null) as one bit-packed run of the RLE/bit-packing hybrid,
/// length-prefixed, then the present values — PLAIN, or for strings while a dictionary pays
/// (``StringDictionary``, ``dictionaryPays(entries:values:bytes:)``) their dictionary indices (RLE_DICTIONARY),
/// the strings themselves going to a dictionary page before the data page.
public struct ColumnBuffer {
    /// Null count and the PLAIN bytes of the smallest and largest value (a string's bytes without length).
    struct Statistics {
        var nulls = 0
        var min: [UInt8]?
        var max: [UInt8]?
    }

    /// A chunk's dictionary page before compression: its values (PLAIN) and their count.
    typealias DictionaryPage = (values: [UInt8], count: Int)

    /// The column's type.
    public let type: ParquetColumnType
    /// Values (rows) in the buffer, nulls included.
    public private(set) var count = 0
    /// The rows (from 0, in this buffer) whose value is null, in order.
    private var nullRows: [Int32] = []
    /// The present values of an integer, date, timestamp, decimal or boolean (0 or 1) column.
    private var integers: [Int64] = []
    /// A string column's present values PLAIN-encoded, once its dictionary was given up (or never used).
    private var plainStrings: [UInt8] = []
    /// A string column's distinct values while the dictionary pays; `nil` once given up.
    private var dictionary: StringDictionary?
    /// The dictionary index of each present value, while ``dictionary`` is kept.
    private var indices: [UInt32] = []
    private var minimumInteger: Int64?
    private var maximumInteger: Int64?
    /// The smallest and largest string of ``plainStrings`` (a dictionary's are found when encoding).
    /// Where in ``plainStrings`` the smallest and largest of them are (their bytes, without the length): a new
    /// extreme — every row of a column in ascending order, as `original_transaction_id` — costs no copy.
    private var minimumRange: Range<Int>?
    private var maximumRange: Range<Int>?

    /// Most distinct strings a chunk's dictionary may hold regardless of the values' count, and the most bytes
    /// its page may take (Parquet writers' usual 1 MiB): past either, a dictionary holding more entries than half
    /// the values is given up for PLAIN.
    static let dictionaryEntriesAlwaysKept = 1024
    static let dictionaryPageBytesLimit = 1 << 20

    /// A buffer of `type`.
    public init(type: ParquetColumnType) {
        self.type = type
        if type == .string { dictionary = StringDictionary() }
    }

    /// Makes room for `rows` values without growing (a hint: more may come).
    mutating func reserve(rows: Int) {
        switch type {
        case .string: indices.reserveCapacity(rows)
        case .int64, .decimal, .timestampMillis, .date, .boolean: integers.reserveCapacity(rows)
        }
    }

    /// Empties the buffer for the next row group, keeping the memory it grew into.
    mutating func reset() {
        count = 0
        nullRows.removeAll(keepingCapacity: true)
        integers.removeAll(keepingCapacity: true)
        plainStrings.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
        dictionary = type == .string ? StringDictionary() : nil
        (minimumInteger, maximumInteger, minimumRange, maximumRange) = (nil, nil, nil, nil)
    }

    /// Whether a dictionary of `entries` strings in `bytes` bytes still pays for `values` present values.
    static func dictionaryPays(entries: Int, values: Int, bytes: Int) -> Bool {
        bytes <= dictionaryPageBytesLimit && (entries <= dictionaryEntriesAlwaysKept || entries * 2 <= values)
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
    public mutating func appendNull() {
        nullRows.append(Int32(truncatingIfNeeded: count))
        count += 1
    }

    /// Adds an INT64 (or a decimal's unscaled value, a timestamp's milliseconds, a date's days); `false` when
    /// the column holds another kind or a date does not fit INT32.
    public mutating func appendInteger(_ integer: Int64) -> Bool {
        switch type {
        case .date: guard Int32(exactly: integer) != nil else { return false }
        case .int64, .decimal, .timestampMillis: break
        case .string, .boolean: return false
        }
        appendPresentInteger(integer)
        return true
    }

    /// Adds a boolean; `false` when the column is not BOOLEAN.
    public mutating func appendBoolean(_ flag: Bool) -> Bool {
        guard type == .boolean else { return false }
        appendPresentInteger(flag ? 1 : 0)
        return true
    }

    private mutating func appendPresentInteger(_ integer: Int64) {
        integers.append(integer)
        count += 1
        if integer < minimumInteger ?? .max { minimumInteger = integer }
        if integer > maximumInteger ?? .min { maximumInteger = integer }
    }

    /// Adds a string's UTF-8 bytes; `false` when the column is not a string column.
    public mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard type == .string else { return false }
        count += 1
        if let entries = dictionary?.count, let index = dictionary?.index(of: bytes) {
            indices.append(UInt32(truncatingIfNeeded: index))
            // Only a new entry can make the dictionary stop paying (read through `?.`: no copy of it per value).
            if let grown = dictionary?.count, grown > entries,
                !Self.dictionaryPays(entries: grown, values: indices.count, bytes: dictionary?.page.count ?? 0)
            {
                giveUpDictionary()
            }
            return true
        }
        appendPlainString(bytes)
        return true
    }

    private mutating func appendPlainString(_ bytes: UnsafeRawBufferPointer) {
        withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { plainStrings.append(contentsOf: $0) }
        let range = plainStrings.count..<(plainStrings.count + bytes.count)
        plainStrings.append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
        let (isMinimum, isMaximum) = plainStrings.withUnsafeBytes { all -> (Bool, Bool) in
            (
                minimumRange.map { Self.compare(bytes, UnsafeRawBufferPointer(rebasing: all[$0])) < 0 } ?? true,
                maximumRange.map { Self.compare(bytes, UnsafeRawBufferPointer(rebasing: all[$0])) > 0 } ?? true
            )
        }
        if isMinimum { minimumRange = range }
        if isMaximum { maximumRange = range }
    }

    /// Writes the values so far as PLAIN strings and goes on without the dictionary.
    private mutating func giveUpDictionary() {
        guard let dictionary else { return }
        self.dictionary = nil
        for index in indices { dictionary.withEntry(Int(index)) { appendPlainString($0) } }
        indices = []
    }

    /// Unsigned byte order (Parquet's order for strings): negative, zero or positive.
    private static func compare(_ left: UnsafeRawBufferPointer, _ right: [UInt8]) -> Int {
        right.withUnsafeBytes { compare(left, $0) }
    }

    private static func compare(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Int {
        let common = Swift.min(left.count, right.count)
        if common > 0, let a = left.baseAddress, let b = right.baseAddress {
            let order = Int(memcmp(a, b, common))
            if order != 0 { return order }
        }
        return left.count - right.count
    }

    private static func appendLittleEndian(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        for shift in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift)))) }
    }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// The chunk's data page before compression (definition levels, then the values or their dictionary indices)
    /// into `page`, emptied first and reused page after page so its memory is not taken and zeroed again; returns
    /// the dictionary page of a dictionary-encoded chunk.
    func encodePages(into page: inout [UInt8]) -> DictionaryPage? {
        // The definition levels: one bit-packed run of bit width 1, a byte per 8 rows, nulls cleared.
        var levelBits = [UInt8](repeating: 0xFF, count: (count + 7) / 8)
        if count % 8 != 0 { levelBits[levelBits.count - 1] = UInt8((1 << (count % 8)) - 1) }
        for row in nullRows { levelBits[Int(row) / 8] &= ~(1 << (row % 8)) }
        var levels: [UInt8] = []
        Self.appendVarint(UInt64(levelBits.count) << 1 | 1, to: &levels)
        levels += levelBits
        page.removeAll(keepingCapacity: true)
        Self.appendLittleEndian(UInt64(levels.count), width: 4, to: &page)
        page += levels
        if let dictionary, dictionary.count > 0 {
            Self.appendIndices(indices, entries: dictionary.count, to: &page)
            return (dictionary.page, dictionary.count)
        }
        switch type {
        case .string: page += plainStrings
        case .boolean:
            var packed = [UInt8](repeating: 0, count: (integers.count + 7) / 8)
            for (index, flag) in integers.enumerated() where flag != 0 { packed[index / 8] |= 1 << (index % 8) }
            page += packed
        case .date:
            page.reserveCapacity(page.count + 4 * integers.count)
            for integer in integers { withUnsafeBytes(of: Int32(truncatingIfNeeded: integer).littleEndian) { page.append(contentsOf: $0) } }
        case .int64, .decimal, .timestampMillis:
            #if _endian(little)
                integers.withUnsafeBytes { page.append(contentsOf: $0) }  // already PLAIN: 8 bytes little-endian each
            #else
                page.reserveCapacity(page.count + 8 * integers.count)
                for integer in integers { withUnsafeBytes(of: integer.littleEndian) { page.append(contentsOf: $0) } }
            #endif
        }
        return nil
    }

    /// RLE_DICTIONARY data: the bit width (one byte), then the indices as one bit-packed run (groups of 8,
    /// least significant bit first, the last group padded with zeros).
    private static func appendIndices(_ indices: [UInt32], entries: Int, to page: inout [UInt8]) {
        let width = max(1, Int.bitWidth - (entries - 1).leadingZeroBitCount)
        page.append(UInt8(width))
        let groups = (indices.count + 7) / 8
        appendVarint(UInt64(groups) << 1 | 1, to: &page)
        page.reserveCapacity(page.count + groups * width)
        var pending: UInt64 = 0
        var pendingBits = 0
        for position in 0..<(groups * 8) {
            let index = position < indices.count ? UInt64(indices[position]) : 0
            pending |= index << UInt64(pendingBits)
            pendingBits += width
            while pendingBits >= 8 {
                page.append(UInt8(truncatingIfNeeded: pending))
                pending >>= 8
                pendingBits -= 8
            }
        }
    }

    /// The chunk's statistics, min and max PLAIN-encoded as Parquet's `min_value` / `max_value` want them.
    var statistics: Statistics {
        var statistics = Statistics(nulls: nullRows.count)
        switch type {
        case .string:
            guard let dictionary else {
                statistics.min = minimumRange.map { Array(plainStrings[$0]) }
                statistics.max = maximumRange.map { Array(plainStrings[$0]) }
                break
            }
            for index in 0..<dictionary.count {
                dictionary.withEntry(index) { entry in
                    if statistics.min.map({ Self.compare(entry, $0) < 0 }) ?? true { statistics.min = Array(entry) }
                    if statistics.max.map({ Self.compare(entry, $0) > 0 }) ?? true { statistics.max = Array(entry) }
                }
            }
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
