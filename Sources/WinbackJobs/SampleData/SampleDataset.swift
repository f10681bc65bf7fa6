/// A generated dataset held in memory: files by relative path and the rejects its bad records must give.
public struct SampleDataset: Sendable {
    /// One injected bad record: where it is and the reject code it must produce.
    public struct ExpectedReject: Sendable, Equatable {
        public var source: String
        public var line: Int
        public var path: String?
        public var code: String
    }

    /// Relative path → contents. `.gz` paths are already compressed.
    public var files: [(path: String, bytes: [UInt8])] = []
    public var expectedRejects: [ExpectedReject] = []
    /// Number of subscriptions simulated.
    public var subscriptionCount = 0
}
