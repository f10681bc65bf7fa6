import WinbackAnalytics

/// Everything the ingest stage produced: counts, the deduplicated payloads, per-input stats.
public struct IngestResult: Sendable {
    /// Read, accepted, rejected and the rest.
    public var counts: IngestCounts
    /// The accepted records, deduplicated, ready for the model.
    public var deduplicated: Deduplicator
    /// Per input file: path, size, SHA-256, records.
    public var inputs: [InputStats]
    /// Warnings about inputs (a pattern matching nothing).
    public var inputWarnings: [String]
    /// Distinct x5c chains that were path-validated.
    public var chainValidations: Int
    /// Input files replayed from the verified store instead of verified (docs/verified-store.md).
    public var filesFromStore = 0
}

extension IngestResult {
    /// A result from its parts (`winback merge`, which adds the shards' counts and builds no model, passes an
    /// empty deduplicator).
    public init(
        counts: IngestCounts, deduplicated: Deduplicator, inputs: [InputStats], inputWarnings: [String], filesFromStore: Int
    ) {
        self.init(
            counts: counts, deduplicated: deduplicated, inputs: inputs, inputWarnings: inputWarnings, chainValidations: 0,
            filesFromStore: filesFromStore)
    }
}
