/// The common NDJSON lines — one object with one signed member, `{"signedTransactionInfo":"<JWS>"}`, or a
/// status item's two, `{"signedTransactionInfo":"<JWS>","signedRenewalInfo":"<JWS>"}` — recognised
/// without building a JSON tree or a `String` of each 3.8–6.6 KB JWS.
///
/// Anything else (another key, a third member, `signedPayload` beside another member, a repeated key, an
/// escape, a byte outside printable ASCII in a JWS) is left to ``JSONParser`` and ``RecordClassifier``'s
/// general rules, which give the same records for the lines matched here.
enum SignedLine {
    enum Key: String, CaseIterable {
        case signedPayload, signedTransactionInfo, signedRenewalInfo
    }

    /// One signed member: its key and the byte range of its JWS (between the quotes).
    struct Member {
        var key: Key
        var jws: Range<Int>
    }

    /// The signed members of `bytes[range]` when the line is such an object, in the order the general
    /// rules list them (`signedTransactionInfo` before `signedRenewalInfo`); `nil` otherwise.
    static func match(_ bytes: [UInt8], range: Range<Int>) -> (Member, Member?)? {
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
            /// `"key":"<plain string>"`, leaving `index` after the closing quote.
            func member() -> Member? {
                guard expect(UInt8(ascii: "\"")) else { return nil }
                guard let key = Key.allCases.first(where: { key in
                    let name = key.rawValue.utf8
                    guard index + name.count < end, buffer[index + name.count] == UInt8(ascii: "\"") else { return false }
                    return zip(name, buffer[index...]).allSatisfy { $0 == $1 }
                }) else { return nil }
                index += key.rawValue.utf8.count + 1
                guard expect(UInt8(ascii: ":")), expect(UInt8(ascii: "\"")) else { return nil }
                let start = index
                guard let stop = plainStringEnd(buffer, from: start, to: end) else { return nil }
                index = stop + 1
                return Member(key: key, jws: start..<stop)
            }
            guard expect(UInt8(ascii: "{")), let first = member() else { return nil }
            skipSpace()
            var second: Member?
            if index < end, buffer[index] == UInt8(ascii: ",") {
                index += 1
                guard let next = member(), first.key != .signedPayload, next.key != .signedPayload, next.key != first.key else {
                    return nil
                }
                second = next
            }
            guard expect(UInt8(ascii: "}")) else { return nil }
            skipSpace()
            guard index == end else { return nil }
            if let next = second, next.key == .signedTransactionInfo { return (next, first) }
            return (first, second)
        }
    }

    /// The index of the quote that closes a string starting at `start`, when every byte before it is
    /// printable ASCII (0x20...0x7E) other than a backslash; `nil` when another byte comes first or there
    /// is no quote. One pass, 32 bytes at a time: the JWS is ~98 % of the line, and a `memchr` for the
    /// quote followed by a separate check of the bytes cost ~0.8 µs per record. (`SIMD32<UInt8>`
    /// compiled to a byte loop through the stack here, 30 times slower.)
    static func plainStringEnd(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        guard let base = buffer.baseAddress, start <= end else { return nil }
        let raw = UnsafeRawPointer(base)
        /// The high bit of each byte of `word` that ends a plain string or is not allowed in one (exact
        /// for "any": a borrow can only mark bytes above one that is really marked).
        func stops(_ word: UInt64) -> UInt64 {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            let below20 = (word &- ones &* 0x20) & ~word
            // 0x7F and above: adding 1 to the low seven bits carries into the high bit only for 0x7F.
            let atLeast7F = word | ((word & ~highs) &+ ones)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            return (below20 | atLeast7F | (quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & highs
        }
        var offset = start
        // Four words per step: independent checks, one branch.
        while offset + 32 <= end {
            let a = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let b = raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
            let c = raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)
            let d = raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)
            if stops(a) | stops(b) | stops(c) | stops(d) != 0 { break }
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
