import WinbackCore
import WinbackIngest

/// Everything the ingest stage produced: counts, the deduplicated payloads, per-input stats.
public struct IngestResult: Sendable {
    public var counts: IngestCounts
    public var deduplicated: Deduplicator
    public var inputs: [InputStats]
    /// Warnings about inputs (a pattern matching nothing).
    public var inputWarnings: [String]
    /// Distinct x5c chains that were path-validated.
    public var chainValidations: Int
}
