import WinbackAnalytics
import WinbackIO

/// Reads one input file into batches of records, in order: NDJSON lines through ``LineReader``, `.json`
/// documents through ``DocumentReader``, gzip inflated on the way, every byte digested (SHA-256 for the
/// manifest). A damaged gzip stream ends the file with one located rejection; an unreadable file throws.
enum InputFileReader {
    /// Reads `file`, handing each batch to `submit` and the bytes read so far (as stored) to `bytesRead`
    /// after each; returns the file's size and SHA-256. Throws ``IOError`` (naming the file) when it cannot
    /// be opened or read.
    static func read(
        _ file: InputFile, batchSize: Int, maximumLineBytes: Int, submit: (InputBatch) async throws -> Void, bytesRead: (Int) -> Void
    ) async throws -> InputStats {
        let fileSource: FileByteSource
        do {
            fileSource = try FileByteSource(path: file.absolutePath, direct: true)
        } catch {
            throw IOError(path: file.relativePath, reason: error.reason)
        }
        let digesting = DigestingSource(fileSource)
        var source: any ByteSource = file.format.isGzip ? try GzipReader(source: digesting) : digesting
        switch file.format.shape {
        case .ndjson:
            var reader = LineReader(source: source, maximumLineBytes: maximumLineBytes)
            // A pushed notification's file may be mid-write: its unterminated last line is not yet a record.
            reader.dropsUnterminatedLastLine = file.isReceivedNotifications
            while let batch = reader.nextBatch(maximumLines: batchSize) {
                // Each batch gets its own copy of the path: every record's location retains it, and one
                // string shared by all batches had both workers and the consumer bouncing its
                // reference count between cores.
                try await submit(.lines(source: String(decoding: Array(file.relativePath.utf8), as: UTF8.self), batch: batch))
                bytesRead(digesting.byteCount)
            }
            if let damage = reader.damage as? StreamDamage {
                try await submit(
                    .records([damageRecord(damage, file: file, line: reader.lineNumber + 1, tail: reader.damagedTail)], firstIndex: 0))
            }
            if let error = reader.damage as? IOError {
                throw IOError(path: file.relativePath, reason: error.reason)
            }
        case .document:
            var document = DocumentReader(
                source: file.relativePath, maximumRecordBytes: maximumLineBytes, batchSize: batchSize,
                read: { try source.read(into: $0) })
            try await document.run { records, firstIndex in
                try await submit(.records(records, firstIndex: firstIndex))
                bytesRead(digesting.byteCount)
            }
            if let error = document.readError as? IOError {
                throw IOError(path: file.relativePath, reason: error.reason)
            }
        }
        return InputStats(path: file.relativePath, bytes: digesting.byteCount, sha256: digesting.hexDigest())
    }

    /// A damaged gzip stream becomes one located rejection (the lines before it were processed).
    static func damageRecord(_ damage: any Error, file: InputFile, line: Int, tail: [UInt8]) -> RawRecord {
        RawRecord(
            location: RecordLocation(source: file.relativePath, line: line, path: nil),
            content: .failure(RecordFailure(.malformedJSON, "input damaged: \(damage); the rest of the file is unreadable")),
            text: RecordText(bytes: tail))
    }
}
