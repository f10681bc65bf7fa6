/// Where a record stands in its input file's order (docs/sharding.md): its line, and its place among the records
/// found on that line (or in that `.json` document). A shard's store entries keep it with each outcome, and its
/// partial with each reject, so the merge can put the shards' rejects back in the order one machine saw them.
public struct RecordOrder: Sendable, Comparable, Hashable {
    /// The 1-based line (1 for a `.json` document), as in the record's location.
    public var line: Int
    /// The record's index among those found on its line or in its document, from 0.
    public var index: Int

    /// The order of record `index` of `line`.
    public init(line: Int, index: Int) {
        self.line = line
        self.index = index
    }

    /// Line first, then the index on the line.
    public static func < (lhs: RecordOrder, rhs: RecordOrder) -> Bool {
        (lhs.line, lhs.index) < (rhs.line, rhs.index)
    }
}
