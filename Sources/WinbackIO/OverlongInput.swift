/// A `.json` document longer than the reader's limit (``LineReader/maximumLineBytes``): it was read to its
/// end and dropped.
public struct OverlongInput: Error, Sendable {
    /// The document's whole length in bytes.
    public var length: Int
    /// Its first ``LineReader/overlongPrefixBytes`` bytes.
    public var prefix: [UInt8]

    /// A document of `length` bytes starting with `prefix`.
    public init(length: Int, prefix: [UInt8]) {
        self.length = length
        self.prefix = prefix
    }
}
