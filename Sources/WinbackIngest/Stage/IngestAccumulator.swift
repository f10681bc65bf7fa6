import WinbackAnalytics

/// Counts and deduplicates outcomes in input order: what every ingest does with its outcomes, whether they
/// come from verifying the inputs or from the verified store.
public struct IngestAccumulator {
    private var counts = IngestCounts()
    private var deduplicator: Deduplicator

    /// An accumulator keeping payloads through `compactor`.
    public init(compactor: PayloadCompactor) {
        deduplicator = Deduplicator(compactor: compactor)
    }

    /// Counts `outcome`; an accepted record goes to the deduplicator, a rejection to `onReject`.
    public mutating func add(_ outcome: RecordOutcome, onReject: (Rejection) throws -> Void) throws {
        switch outcome {
        case .accepted(let record):
            counts.countAccepted(record)
            deduplicator.add(record.kept)
        case .rejected(let rejection):
            counts.countRejected(rejection)
            try onReject(rejection)
        }
    }

    /// The ingest's result, every input listed in the per-source counts (0 for a file without records).
    public consuming func result(inputs: [InputStats], inputWarnings: [String], chainValidations: Int, filesFromStore: Int) -> IngestResult
    {
        counts.duplicates = deduplicator.duplicates
        for input in inputs where counts.recordsBySource[input.path] == nil { counts.recordsBySource[input.path] = 0 }
        return IngestResult(
            counts: counts, deduplicated: deduplicator, inputs: inputs, inputWarnings: inputWarnings, chainValidations: chainValidations,
            filesFromStore: filesFromStore)
    }
}
