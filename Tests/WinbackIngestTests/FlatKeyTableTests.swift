import Testing

@testable import WinbackAppStore
@testable import WinbackIngest

/// The key table against a plain search of its key list: every key, and every edit of one that a
/// payload could hold instead (a changed, missing or extra byte, another case), for Apple's key sets.
@Suite struct FlatKeyTableTests {
    static let keySets: [[String]] = [
        FastPayloadDecoder.TransactionField.allCases.map { String(describing: $0) },
        FastPayloadDecoder.RenewalField.allCases.map { String(describing: $0) },
        JSONKeyTable.keys,
        ["a", "b", "ab", "ba", "aa", "abc", "acb"],
    ]

    @Test(arguments: keySets)
    func findsEveryKeyAndNothingElse(_ keys: [String]) {
        let table = FlatKeyTable(keys)
        func index(_ text: [UInt8]) -> Int? { text.withUnsafeBufferPointer { table.index(of: $0) } }
        var mismatches: [String] = []
        for (position, key) in keys.enumerated() {
            let utf8 = Array(key.utf8)
            if index(utf8) != position { mismatches.append(key) }
            var edits: [[UInt8]] = [
                Array(utf8.dropFirst()), Array(utf8.dropLast()), utf8 + [UInt8(ascii: "x")], [UInt8(ascii: "x")] + utf8,
            ]
            edits.append(Array(key.uppercased().utf8))
            for offset in utf8.indices {
                for replacement in [UInt8(ascii: "a"), UInt8(ascii: "Z"), 0x00, 0xFF] where replacement != utf8[offset] {
                    var edited = utf8
                    edited[offset] = replacement
                    edits.append(edited)
                }
            }
            for edit in edits where index(edit) != keys.firstIndex(of: String(decoding: edit, as: UTF8.self)) {
                mismatches.append(String(decoding: edit, as: UTF8.self))
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(index([]) == nil)
    }
}
