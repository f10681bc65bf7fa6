#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The common NDJSON line — one object with one signed member, `{"signedTransactionInfo":"<JWS>"}` —
/// recognised without building a JSON tree or a `String` of its 3.8–6.6 KB JWS.
///
/// Anything else (another key, a second member, an escape, a byte outside printable ASCII in the JWS)
/// is left to ``JSONParser`` and ``RecordClassifier``'s general rules, which give the same records for
/// the lines matched here.
enum SignedLine {
    enum Key: String, CaseIterable {
        case signedPayload, signedTransactionInfo, signedRenewalInfo
    }

    /// The key and the byte range of the JWS (between its quotes) when `bytes[range]` is such a line.
    static func match(_ bytes: [UInt8], range: Range<Int>) -> (Key, Range<Int>)? {
        bytes.withUnsafeBufferPointer { buffer in
            var index = range.lowerBound
            let end = range.upperBound
            func skipSpace() {
                while index < end, buffer[index] == 0x20 || buffer[index] == 0x09 || buffer[index] == 0x0D { index += 1 }
            }
            func expect(_ byte: UInt8) -> Bool {
                skipSpace()
                guard index < end, buffer[index] == byte else { return false }
                index += 1
                return true
            }
            guard expect(UInt8(ascii: "{")), expect(UInt8(ascii: "\"")) else { return nil }
            guard let key = Key.allCases.first(where: { key in
                let name = key.rawValue.utf8
                guard index + name.count < end, buffer[index + name.count] == UInt8(ascii: "\"") else { return false }
                return zip(name, buffer[index...]).allSatisfy { $0 == $1 }
            }) else { return nil }
            index += key.rawValue.utf8.count + 1
            guard expect(UInt8(ascii: ":")), expect(UInt8(ascii: "\"")), let base = buffer.baseAddress else { return nil }
            let start = index
            guard let quote = memchr(base + start, Int32(UInt8(ascii: "\"")), end - start) else { return nil }
            let stop = base.distance(to: quote.assumingMemoryBound(to: UInt8.self))
            guard isPrintableASCIIWithoutBackslash(UnsafeBufferPointer(rebasing: buffer[start..<stop])) else { return nil }
            index = stop + 1
            guard expect(UInt8(ascii: "}")) else { return nil }
            skipSpace()
            return index == end ? (key, start..<stop) : nil
        }
    }

    /// Every byte in 0x20...0x7E and none a backslash (eight at a time).
    private static func isPrintableASCIIWithoutBackslash(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var offset = 0
        while offset + 8 <= raw.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let backslash = word ^ (ones &* 0x5C)
            let hasBackslash = (backslash &- ones) & ~backslash & highs
            let below20 = (word &- ones &* 0x20) & ~word & highs
            // 0x7F: adding 1 sets the high bit only for 0x7F among 7-bit bytes.
            let isDelete = ((word & ~highs) &+ ones) & highs & ~word
            if word & highs | hasBackslash | below20 | isDelete != 0 { return false }
            offset += 8
        }
        while offset < raw.count {
            let byte = raw[offset]
            if byte < 0x20 || byte > 0x7E || byte == 0x5C { return false }
            offset += 1
        }
        return true
    }
}
