import WinbackAnalytics
import WinbackCore

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
            var cursor = Cursor(buffer: buffer, index: range.lowerBound, end: range.upperBound)
            guard cursor.expect(UInt8(ascii: "{")), let first = cursor.member(prefix: &prefix) else { return nil }
            cursor.skipSpace()
            var second: Member?
            if cursor.index < cursor.end, buffer[cursor.index] == UInt8(ascii: ",") {
                cursor.index += 1
                guard let next = cursor.member(prefix: &prefix), first.key != .signedPayload, next.key != .signedPayload,
                    next.key != first.key
                else {
                    return nil
                }
                second = next
            }
            guard cursor.expect(UInt8(ascii: "}")) else { return nil }
            cursor.skipSpace()
            guard cursor.index == cursor.end else { return nil }
            if let next = second, next.key == .signedTransactionInfo { return (next, first) }
            return (first, second)
        }
    }

    /// Each key with its UTF-8 bytes.
    private static let keys = Key.allCases.map { ($0, Array($0.rawValue.utf8)) }

    /// A position in the line being matched: a value with its own state, not local functions capturing the
    /// scan's variables (whose accesses each went through the runtime's exclusivity check).
    private struct Cursor {
        let buffer: UnsafeBufferPointer<UInt8>
        var index: Int
        let end: Int

        mutating func skipSpace() {
            while index < end, buffer[index] == 0x20 || buffer[index] == 0x09 || buffer[index] == 0x0D { index += 1 }
        }

        mutating func expect(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < end, buffer[index] == byte else { return false }
            index += 1
            return true
        }

        /// `"key":"<plain string>"`, leaving ``index`` after the closing quote.
        mutating func member(prefix: inout ScannedPrefix) -> Member? {
            guard expect(UInt8(ascii: "\"")), let key = key() else { return nil }
            guard expect(UInt8(ascii: ":")), expect(UInt8(ascii: "\"")) else { return nil }
            let start = index
            let known = prefix.length(in: buffer, from: start, to: end)
            guard let stop = PlainString.end(buffer, from: start + known, to: end) else { return nil }
            if known == 0 { prefix.learn(buffer, from: start, to: stop) }
            index = stop + 1
            return Member(key: key, jws: start..<stop)
        }

        /// The signed key at ``index`` followed by its closing quote, which ``index`` is moved past.
        mutating func key() -> Key? {
            for (key, name) in SignedLine.keys {
                guard index + name.count < end, buffer[index + name.count] == UInt8(ascii: "\"") else { continue }
                var matches = true
                for offset in name.indices where buffer[index + offset] != name[offset] {
                    matches = false
                    break
                }
                if matches {
                    index += name.count + 1
                    return key
                }
            }
            return nil
        }
    }
}
