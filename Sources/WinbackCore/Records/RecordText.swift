/// The original text of a record, kept as bytes and turned into a string only when the record is
/// rejected (most records are accepted, and copying 6.6 KB per record shows in profiles).
public struct RecordText: Sendable {
    public let bytes: [UInt8]
    public let range: Range<Int>

    public init(bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        self.range = range
    }

    public init(bytes: [UInt8]) {
        self.init(bytes: bytes, range: 0..<bytes.count)
    }

    public init(_ string: String) {
        self.init(bytes: Array(string.utf8))
    }

    /// The text (invalid UTF-8 is replaced by U+FFFD).
    public var string: String { String(decoding: bytes[range], as: UTF8.self) }
}
