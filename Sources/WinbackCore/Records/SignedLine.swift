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
        var prefix = ScannedPrefix()
        return match(bytes, range: range, prefix: &prefix)
    }

    /// ``match(_:range:)``; a JWS that starts with `prefix` is scanned from after it, and one scanned in
    /// full becomes the prefix.
    static func match(_ bytes: [UInt8], range: Range<Int>, prefix: inout ScannedPrefix) -> (Member, Member?)? {
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
                let known = prefix.length(in: buffer, from: start, to: end)
                guard let stop = PlainString.end(buffer, from: start + known, to: end) else { return nil }
                if known == 0 { prefix.learn(buffer, from: start, to: stop) }
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
}
