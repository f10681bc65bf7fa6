import Foundation
import WinbackIO

/// Reads back a partial's record file (``PartialRecordWriter``) a record at a time. The bytes on disk are
/// hashed as they are read: at the end, a size or SHA-256 other than `partial.json` names, or a record cut
/// short, exits 74 naming the file (the merge publishes nothing then).
final class PartialRecordReader {
    private let path: String
    private let expected: PartialManifest.FileDigest
    private let digesting: DigestingSource
    private let gzip: GzipReader
    private var buffer: [UInt8] = []
    private var position = 0
    private var isAtEnd = false

    /// Opens `path`, which `partial.json` says has `expected` size and digest.
    init(path: String, expected: PartialManifest.FileDigest) throws(JobError) {
        self.path = path
        self.expected = expected
        do {
            digesting = DigestingSource(try FileByteSource(path: path))
            gzip = try GzipReader(source: digesting)
        } catch {
            throw .io(IOError(path: path, reason: "unusable partial file (\(error))"))
        }
    }

    /// The next record's `count` fields, or `nil` after the last one (when the file's digest is checked).
    func next(fields count: Int) throws(JobError) -> [[UInt8]]? {
        guard try fill(1) else {
            guard digesting.byteCount == expected.bytes, digesting.hexDigest() == expected.sha256 else {
                throw damaged("its size or SHA-256 is not the one partial.json records")
            }
            return nil
        }
        var fields: [[UInt8]] = []
        fields.reserveCapacity(count)
        for _ in 0..<count {
            guard try fill(4) else { throw damaged("a record is cut short") }
            var length = 0
            for offset in 0..<4 { length |= Int(buffer[position + offset]) << (8 * offset) }
            position += 4
            guard try fill(length) else { throw damaged("a record is cut short") }
            fields.append(Array(buffer[position..<(position + length)]))
            position += length
        }
        return fields
    }

    /// Makes `count` bytes available at `position`; false when the stream ends first.
    private func fill(_ count: Int) throws(JobError) -> Bool {
        while buffer.count - position < count {
            if isAtEnd { return false }
            if position > 0 {
                buffer.removeFirst(position)
                position = 0
            }
            let start = buffer.count
            let chunk = max(1 << 20, count)
            buffer.append(contentsOf: repeatElement(0, count: chunk))
            let read: Int
            do {
                read = try buffer[start...].withUnsafeMutableBytes { try gzip.read(into: $0) }
            } catch {
                throw damaged("\(error)")
            }
            buffer.removeLast(chunk - read)
            if read == 0 { isAtEnd = true }
        }
        return true
    }

    private func damaged(_ reason: String) -> JobError {
        .io(IOError(path: path, reason: "unusable partial file: \(reason)"))
    }
}
