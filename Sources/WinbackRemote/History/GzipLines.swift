import WinbackIO
import WinbackJobs

/// Reads the lines of a gzip text file one at a time (the history parts and synced notifications).
enum GzipLines {
    /// Calls `body` with each non-empty line of the gzip file at `path` and its 1-based number.
    static func forEach(_ path: String, _ body: (ArraySlice<UInt8>, Int) throws(JobError) -> Void) throws(JobError) {
        var reader: LineReader
        do {
            reader = LineReader(source: try GzipReader(source: try FileByteSource(path: path)))
        } catch {
            throw .io(error)
        }
        while let line = reader.nextLine({ Array($0) }) {
            if !line.isEmpty { try body(line[...], reader.lineNumber) }
        }
        if let damage = reader.damage { throw .io(IOError(path: path, reason: "damaged (\(damage))")) }
    }
}
