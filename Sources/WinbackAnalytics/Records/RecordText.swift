/// The original text of a record, kept as it arrived (a range of a shared line buffer, or the string
/// a notification payload held) and turned into a string only when the record is rejected: most
/// records are accepted, and copying several kilobytes of JWS per record is a cost on every one.
public struct RecordText: Sendable {
    private enum Storage: Sendable {
        case bytes([UInt8], Range<Int>)
        case string(String)
    }

    private let storage: Storage

    /// The text `bytes[range]`, kept without a copy.
    public init(bytes: [UInt8], range: Range<Int>) {
        storage = .bytes(bytes, range)
    }

    /// The text `bytes`.
    public init(bytes: [UInt8]) {
        self.init(bytes: bytes, range: 0..<bytes.count)
    }

    /// The text of `string`.
    public init(_ string: String) {
        storage = .string(string)
    }

    /// The text (invalid UTF-8 is replaced by U+FFFD).
    public var string: String {
        switch storage {
        case .bytes(let bytes, let range): String(decoding: bytes[range], as: UTF8.self)
        case .string(let string): string
        }
    }

    /// The original bytes when they are not valid UTF-8 (``string`` then replaced some of them), else `nil`.
    public var invalidUTF8Bytes: [UInt8]? {
        switch storage {
        case .bytes(let bytes, let range): String(validating: bytes[range], as: UTF8.self) == nil ? Array(bytes[range]) : nil
        case .string: nil
        }
    }

    /// The text's length in UTF-8 bytes.
    public var byteCount: Int {
        switch storage {
        case .bytes(_, let range): range.count
        case .string(let string): string.utf8.count
        }
    }

    /// Calls `body` with the text's UTF-8 bytes, without copying them; what `body` throws is thrown.
    public func withBytes<T, Failure: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> T) throws(Failure) -> T {
        switch storage {
        case .bytes(let bytes, let range):
            return try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> T in
                try body(UnsafeBufferPointer(rebasing: buffer[range]))
            }
        case .string(let string):
            var string = string
            let outcome = string.withUTF8 { bytes in Swift.Result { () throws(Failure) -> T in try body(bytes) } }
            return try outcome.get()
        }
    }
}
