/// A fixed list of object keys looked up by their UTF-8 bytes, giving each key's position in the list.
///
/// ``FlatJSONScanner`` uses it to put a member's value in the slot of its field without building a `String`
/// for the key (a 21-byte key such as `originalTransactionId` would be a heap allocation).
public struct FlatKeyTable: Sendable {
    public let keys: [String]
    /// For each UTF-8 length, the keys of that length: their bytes and their index in ``keys``.
    private let byLength: [[(bytes: [UInt8], index: Int)]]

    public init(_ keys: [String]) {
        self.keys = keys
        let longest = keys.map(\.utf8.count).max() ?? 0
        var table = Array(repeating: [(bytes: [UInt8], index: Int)](), count: longest + 1)
        for (index, key) in keys.enumerated() { table[key.utf8.count].append((Array(key.utf8), index)) }
        byLength = table
    }

    /// The index of the key spelled by `bytes`, or `nil` when it is not in the table.
    public func index(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count < byLength.count else { return nil }
        for candidate in byLength[bytes.count] where candidate.bytes.withUnsafeBufferPointer({ stored in
            // Compared from the end: Apple's keys share prefixes (`originalPurchaseDate`, `originalTransactionId`).
            var offset = bytes.count - 1
            while offset >= 0, stored[offset] == bytes[offset] { offset -= 1 }
            return offset < 0
        }) {
            return candidate.index
        }
        return nil
    }
}
