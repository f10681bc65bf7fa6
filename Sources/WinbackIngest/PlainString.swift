/// Finds where a JSON string of plain characters ends, without decoding it: the scan under the fast
/// paths (the JWS string of a signed line, every key and string of a flat payload).
enum PlainString {
    /// The index of the quote that closes a string whose characters start at `start`, when every byte
    /// before it is printable ASCII (0x20...0x7E) other than a backslash; `nil` when another byte comes
    /// first or there is no quote before `end`.
    ///
    /// 32 bytes at a time with two 16-byte vectors; the first stop is found from the compare masks. This
    /// is faster than eight-byte words (SWAR), `memchr` plus a second check, or a byte loop, on JWS and on
    /// short identifiers alike (docs/performance.md). The vector code is fragile: `any(mask)` compiled to
    /// a call to a generic lane reduction, and reading the mask as a tuple, not `SIMD2<UInt64>`, to a loop
    /// over lanes, both far slower, so keep the shape below.
    static func end(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        guard let base = buffer.baseAddress, start <= end, end <= buffer.count else { return nil }
        let raw = UnsafeRawPointer(base)
        // Adding 0xE0 moves 0x20...0x7E to 0x00...0x5E, so one unsigned compare finds every byte outside it.
        let shift = SIMD16<UInt8>(repeating: 0xE0)
        let outside = SIMD16<UInt8>(repeating: 0x5F)
        let quote = SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
        let backslash = SIMD16<UInt8>(repeating: UInt8(ascii: "\\"))
        var offset = start
        while offset + 32 <= end {
            let a = raw.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
            let b = raw.loadUnaligned(fromByteOffset: offset + 16, as: SIMD16<UInt8>.self)
            let stopsA = ((a &+ shift) .>= outside) .| (a .== quote) .| (a .== backslash)
            let stopsB = ((b &+ shift) .>= outside) .| (b .== quote) .| (b .== backslash)
            let either = unsafeBitCast(stopsA .| stopsB, to: SIMD2<UInt64>.self)
            if either[0] | either[1] != 0 {
                // Each stopping byte is 0xFF in its mask word: the first one is the lowest set byte.
                let low = unsafeBitCast(stopsA, to: SIMD2<UInt64>.self)
                let high = unsafeBitCast(stopsB, to: SIMD2<UInt64>.self)
                let first =
                    low[0] != 0
                    ? low[0].trailingZeroBitCount >> 3
                    : low[1] != 0
                        ? 8 + low[1].trailingZeroBitCount >> 3
                        : high[0] != 0 ? 16 + high[0].trailingZeroBitCount >> 3 : 24 + high[1].trailingZeroBitCount >> 3
                return base[offset + first] == UInt8(ascii: "\"") ? offset + first : nil
            }
            offset += 32
        }
        while offset < end {
            let byte = base[offset]
            if byte == UInt8(ascii: "\"") { return offset }
            if byte < 0x20 || byte > 0x7E || byte == UInt8(ascii: "\\") { return nil }
            offset += 1
        }
        return nil
    }
}
