/// Where a record stands in its input file's order (docs/sharding.md): its line, and its place among the records
/// found on that line (or in that `.json` document). A shard's store entries keep it with each outcome, and its
/// partial with each reject, so the merge can put the shards' rejects back in the order one machine saw them.
public struct RecordOrder: Sendable, Comparable, Hashable {
    /// The 1-based line (1 for a `.json` document), as in the record's location.
    public var line: Int
    /// The record's index among those found on its line or in its document, from 0, in a sharded run's outcomes
    /// combined with its part (``orderIndex(index:part:)``).
    public var index: Int

    /// Which part of a found record an outcome is: the record, or a notification's nested record.
    public enum Part: Int, Sendable {
        case record = 0, nestedTransaction = 1, nestedRenewalInfo = 2

        /// The part an outcome at `path` (its location's field path) is.
        public init(path: String?) {
            switch path {
            case "data.signedTransactionInfo": self = .nestedTransaction
            case "data.signedRenewalInfo": self = .nestedRenewalInfo
            default: self = .record
            }
        }
    }

    /// The order index a shard keeps with an outcome: record `index` on its line, times 3, plus its `part`; a
    /// notification's parts may be kept by different shards, and the merge puts them back in one machine's order.
    public static func orderIndex(index: Int, part: Part) -> Int {
        index * 3 + part.rawValue
    }

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
