#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The distinct strings of a column chunk in first-seen order, kept as Parquet's dictionary page wants them
/// (PLAIN: a 4-byte little-endian length, then the bytes, per entry), with an open-addressing table that
/// finds an entry's index from its bytes.
struct StringDictionary {
    /// The dictionary page's values, PLAIN-encoded.
    private(set) var page: [UInt8] = []
    /// Where each entry's length prefix starts in ``page``.
    private var starts: [Int] = []
    /// The table: an entry's index + 1, or 0 for an empty slot; its size is a power of two, at most half full.
    private var slots = [Int32](repeating: 0, count: 64)

    /// The number of entries.
    var count: Int { starts.count }

    /// Entry `index`'s bytes (without the length prefix), valid while `body` runs.
    func withEntry<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try page.withUnsafeBytes { page in
            let start = starts[index] + 4
            let end = index + 1 < starts.count ? starts[index + 1] : page.count
            return try body(UnsafeRawBufferPointer(rebasing: page[start..<end]))
        }
    }

    /// The index of the entry holding `bytes`, added at the end when it is not there yet.
    mutating func index(of bytes: UnsafeRawBufferPointer) -> Int {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(bytes)) & mask
        while true {
            let stored = Int(slots[slot])
            if stored == 0 { break }
            if withEntry(stored - 1, { Self.equal($0, bytes) }) { return stored - 1 }
            slot = (slot + 1) & mask
        }
        let index = starts.count
        starts.append(page.count)
        withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { page.append(contentsOf: $0) }
        page.append(contentsOf: bytes)
        slots[slot] = Int32(index + 1)
        if starts.count * 2 > slots.count { grow() }
        return index
    }

    /// Doubles the table and places every entry again.
    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for index in starts.indices {
            var slot = withEntry(index) { Int(truncatingIfNeeded: Self.hash($0)) & mask }
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index + 1)
        }
    }

    private static func equal(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        guard left.count == right.count else { return false }
        guard let a = left.baseAddress, let b = right.baseAddress else { return true }
        return memcmp(a, b, left.count) == 0
    }

    /// A fast, non-cryptographic hash of `bytes`, eight at a time (the table's keys are the table's own data).
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = UInt64(truncatingIfNeeded: bytes.count) &* 0x9E37_79B9_7F4A_7C15
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            offset += 8
        }
        if offset < bytes.count {
            // The last eight bytes (overlapping the words above) when there are eight, else byte by byte.
            var tail: UInt64 = 0
            if bytes.count >= 8 {
                tail = bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
            } else {
                for index in offset..<bytes.count { tail = tail << 8 | UInt64(bytes[index]) }
            }
            hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
            hash ^= hash >> 29
        }
        return hash
    }
}
