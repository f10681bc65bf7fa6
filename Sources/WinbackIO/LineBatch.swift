/// Complete lines read together, left in the buffer they were read into: the ingest hands a batch to a
/// worker as it is, without copying its lines.
public struct LineBatch: Sendable {
    /// The bytes the lines are in (a few bytes around them may belong to no line: a BOM, line ends).
    public var bytes: [UInt8]
    /// Each line's number (from 1) and its range in `bytes`, without `\n` / `\r\n`.
    public var lines: [(number: Int, range: Range<Int>)]
    /// Lines longer than the reader's limit, by number: their whole length in bytes. Such a line's range
    /// holds only its first ``LineReader/overlongPrefixBytes`` bytes; the rest was read and dropped.
    public var overlongLines: [Int: Int] = [:]

    /// A batch of `lines` (numbers and ranges) in `bytes`.
    public init(bytes: [UInt8], lines: [(number: Int, range: Range<Int>)]) {
        self.bytes = bytes
        self.lines = lines
    }
}
