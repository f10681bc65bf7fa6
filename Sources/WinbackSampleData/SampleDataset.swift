/// A generated dataset held in memory: files by relative path and the rejects its bad records must give.
public struct SampleDataset: Sendable {
    /// One injected bad record: where it is and the reject code it must produce.
    public struct ExpectedReject: Sendable, Equatable {
        /// The input file, relative to the dataset.
        public var source: String
        /// Its 1-based line.
        public var line: Int
        /// The path inside the record, if nested.
        public var path: String?
        /// The reject code expected.
        public var code: String
    }

    /// Relative path → contents. `.gz` paths are already compressed.
    public var files: [(path: String, bytes: [UInt8])] = []
    /// The bad records injected, in file order.
    public var expectedRejects: [ExpectedReject] = []
    /// Number of subscriptions simulated.
    public var subscriptionCount = 0
}
