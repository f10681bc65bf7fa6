#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fixed list of object keys looked up by their UTF-8 bytes, giving each key's position in the list.
///
/// ``FlatJSONScanner`` uses it to put a member's value in the slot of its field without building a `String`
/// for the key (a 21-byte key such as `originalTransactionId` would be a heap allocation). A payload has
/// ~25 keys, so a lookup is a fingerprint of the key (its length and first and last eight bytes), a
/// probe of an open-addressing table four times the number of keys, and one `memcmp` per key met on the
/// way (usually one), instead of comparing every key of the same length.
public struct FlatKeyTable: Sendable {
    /// The keys, in slot order.
    public let keys: [String]
    /// Every key's UTF-8 bytes, back to back.
    private let bytes: [UInt8]
    /// Each key's offset in ``bytes`` and length.
    private let spans: [(offset: Int, count: Int)]
    /// Key index + 1 (0: empty), placed by ``fingerprint(_:)`` with linear probing.
    private let slots: [Int16]

    /// A table of `keys` (distinct); a key's slot is its index.
    public init(_ keys: [String]) {
        self.keys = keys
        var bytes: [UInt8] = []
        var spans: [(offset: Int, count: Int)] = []
        for key in keys {
            spans.append((bytes.count, key.utf8.count))
            bytes += key.utf8
        }
        var size = 16
        while size < 4 * keys.count { size *= 2 }
        var slots = [Int16](repeating: 0, count: size)
        bytes.withUnsafeBufferPointer { all in
            for (index, span) in spans.enumerated() {
                var slot =
                    Int(truncatingIfNeeded: Self.fingerprint(UnsafeBufferPointer(rebasing: all[span.offset..<span.offset + span.count])))
                    & (size - 1)
                while slots[slot] != 0 { slot = (slot + 1) & (size - 1) }
                slots[slot] = Int16(index + 1)
            }
        }
        self.bytes = bytes
        self.spans = spans
        self.slots = slots
    }

    /// The key's length and its first and last eight bytes (all of them when shorter), mixed.
    private static func fingerprint(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var head: UInt64 = 0
        var tail: UInt64 = 0
        if key.count >= 8, let base = key.baseAddress {
            head = UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)
            tail = UnsafeRawPointer(base + key.count - 8).loadUnaligned(as: UInt64.self)
        } else {
            for byte in key { head = head << 8 | UInt64(byte) }
        }
        let mixed = (head ^ (tail << 29 | tail >> 35) ^ UInt64(key.count)) &* 0x9E37_79B9_7F4A_7C15
        return mixed >> 32
    }

    /// The index of the key spelled by `bytes`, or `nil` when it is not in the table.
    public func index(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: Self.fingerprint(key)) & mask
        while true {
            let candidate = Int(slots[slot]) - 1
            if candidate < 0 { return nil }
            let span = spans[candidate]
            if span.count == key.count {
                guard let base = key.baseAddress else { return candidate }
                if bytes.withUnsafeBufferPointer({ table in
                    table.baseAddress.map { memcmp($0 + span.offset, base, span.count) == 0 } ?? false
                }) {
                    return candidate
                }
            }
            slot = (slot + 1) & mask
        }
    }
}
