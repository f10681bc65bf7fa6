import Dispatch
import WinbackAnalytics
import WinbackIO

/// A table's `<table>.parquet` written from its CSV rows while the CSV is being written: the CSV writer hands
/// over each chunk of whole rows before compressing it (``ReportFileWriter/onRows``) and the twin types
/// and encodes them on a queue of its own, so the conversion runs beside the CSV's writing on the other core
/// instead of reading the compressed file back afterwards (docs/performance.md). The file is the one
/// ``ParquetTables`` would write from the published CSV, byte for byte.
///
/// A serial `DispatchQueue` rather than a task: the CSV writer hands over chunks synchronously, from inside
/// the report loop, and at most ``chunksInFlight`` chunks (64 KiB each) wait, so a slow conversion holds the
/// writer back instead of queueing the table in memory.
final class ParquetTwin: @unchecked Sendable {
    private let conversion: ParquetConversion
    private let queue = DispatchQueue(label: "winback.parquet-twin")
    private let slots = DispatchSemaphore(value: chunksInFlight)
    /// The first failure, raised by ``finish()``; only touched on ``queue``.
    private var failure: JobError?
    /// Most chunks handed over and not yet converted.
    static let chunksInFlight = 4

    /// A twin writing `directory/<table>.parquet` for the CSV table `schema` (of about `expectedRows` rows, when known).
    init(schema: ReportSchema, directory: String, expectedRows: Int? = nil) throws(JobError) {
        conversion = try ParquetConversion(schema: schema, directory: directory, expectedRows: expectedRows)
    }

    /// Converts `rows` (whole CSV rows, no header), after the chunks handed over before.
    func consume(_ rows: [UInt8]) {
        slots.wait()
        queue.async {
            defer { self.slots.signal() }
            guard self.failure == nil else { return }
            do throws(JobError) {
                try self.conversion.append(csvRows: rows)
            } catch {
                self.failure = error
            }
        }
    }

    /// Waits for every chunk handed over, ends the file and returns its stats (or the first failure).
    func finish() throws(JobError) -> OutputStats {
        let finished = queue.sync { () -> Result<OutputStats, JobError> in
            if let failure = self.failure { return .failure(failure) }
            return Result { () throws(JobError) -> OutputStats in try self.conversion.finish() }
        }
        return try finished.get()
    }
}
