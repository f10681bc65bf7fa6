import WinbackAnalytics
import WinbackIO

/// A batch of one input's records, read in order and verified by one worker (``VerifiedBatch``).
enum InputBatch: Sendable {
    /// Lines in the buffer they were read into: one allocation per batch, no copy of a line. `source` is the
    /// input's config-relative path.
    case lines(source: String, batch: LineBatch)
    /// Records of a `.json` document (or one located failure), the first being record `firstIndex` of its line.
    case records([RawRecord], firstIndex: Int)
}
