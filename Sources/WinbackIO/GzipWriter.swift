import CZlib

/// Compresses bytes into a gzip (RFC 1952) stream through the system zlib.
///
/// The header carries no file name and a zero modification time, so the same input always gives the
/// same bytes (re-runs of a day are byte-identical).
public final class GzipWriter {
    private var stream = z_stream()
    private var output: [UInt8] = []
    private var isFinished = false
    private let sink: (inout [UInt8]) throws -> Void

    /// `sink` receives compressed chunks and may empty the buffer it is given.
    public init(level: Int32 = 6, sink: @escaping (inout [UInt8]) throws -> Void) throws(IOError) {
        self.sink = sink
        let status = deflateInit2_(
            &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw IOError(path: "", reason: "zlib deflateInit2 failed (\(status))") }
    }

    deinit {
        deflateEnd(&stream)
    }

    /// Compresses `bytes`.
    public func write(_ bytes: [UInt8]) throws {
        try run(bytes, flush: Z_NO_FLUSH)
    }

    /// Compresses the UTF-8 of `text`.
    public func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    /// Ends the stream (trailer with CRC-32 and size).
    public func finish() throws {
        guard !isFinished else { return }
        try run([], flush: Z_FINISH)
        isFinished = true
    }

    private func run(_ bytes: [UInt8], flush: Int32) throws {
        var bytes = bytes
        let chunk = 1 << 16
        try bytes.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = UInt32(inBuffer.count)
            repeat {
                let start = output.count
                output.append(contentsOf: repeatElement(0, count: chunk))
                let status = output.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_out = outBuffer.baseAddress.map { $0 + start }
                    stream.avail_out = UInt32(chunk)
                    return deflate(&stream, flush)
                }
                output.removeLast(Int(stream.avail_out))
                guard status == Z_OK || status == Z_BUF_ERROR || status == Z_STREAM_END else {
                    throw IOError(path: "", reason: "zlib deflate failed (\(status))")
                }
                if output.count >= chunk { try sink(&output); output.removeAll(keepingCapacity: true) }
                if status == Z_STREAM_END { break }
            } while stream.avail_out == 0 || (flush == Z_FINISH)
        }
        if flush == Z_FINISH, !output.isEmpty {
            try sink(&output)
            output.removeAll(keepingCapacity: true)
        }
    }

    /// Compresses a whole buffer at once.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) throws -> [UInt8] {
        var result: [UInt8] = []
        let writer = try GzipWriter(level: level) { chunk in result.append(contentsOf: chunk) }
        try writer.write(bytes)
        try writer.finish()
        return result
    }
}
