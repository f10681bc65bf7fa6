import CZlib

/// Streams the decompressed bytes of a gzip file through the system zlib (concatenated members included).
///
/// Memory stays at two fixed buffers whatever the file size. A truncated or corrupt stream throws
/// ``StreamDamage`` after delivering every byte that decompressed cleanly.
public final class GzipReader: ByteSource {
    private var source: any ByteSource
    private var stream = z_stream()
    private var input: [UInt8] = []
    private var inputOffset = 0
    private var isSourceFinished = false
    private var isFinished = false
    private var delivered = 0
    private var isInitialized = false
    private var memberEnded = false
    private static let chunkSize = 1 << 18

    public init(source: any ByteSource) throws(IOError) {
        self.source = source
        let status = inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw IOError(path: "", reason: "zlib inflateInit2 failed (\(status))") }
        isInitialized = true
    }

    deinit {
        if isInitialized { inflateEnd(&stream) }
    }

    private func refill() throws {
        if inputOffset < input.count || isSourceFinished { return }
        input.removeAll(keepingCapacity: true)
        inputOffset = 0
        if try source.read(into: &input, maximumCount: Self.chunkSize) == 0 { isSourceFinished = true }
    }

    public func read(into buffer: inout [UInt8], maximumCount: Int) throws -> Int {
        if isFinished { return 0 }
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: maximumCount))
        var produced = 0
        defer { buffer.removeLast(maximumCount - produced) }
        while produced == 0 {
            try refill()
            if inputOffset >= input.count && isSourceFinished {
                isFinished = true
                if memberEnded { return 0 }
                throw StreamDamage(offset: delivered, reason: "gzip stream truncated (unexpected end of file)")
            }
            if memberEnded {
                // Another gzip member follows (concatenated gzip, as `cat a.gz b.gz` makes).
                inflateReset(&stream)
                memberEnded = false
            }
            let availableIn = input.count - inputOffset
            let status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
                buffer.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_in = inBuffer.baseAddress! + inputOffset
                    stream.avail_in = UInt32(availableIn)
                    stream.next_out = outBuffer.baseAddress! + start + produced
                    stream.avail_out = UInt32(maximumCount - produced)
                    return inflate(&stream, Z_NO_FLUSH)
                }
            }
            inputOffset += availableIn - Int(stream.avail_in)
            produced = maximumCount - Int(stream.avail_out)
            switch status {
            case Z_OK, Z_BUF_ERROR: break
            case Z_STREAM_END:
                memberEnded = true
            default:
                isFinished = true
                delivered += produced
                let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw StreamDamage(offset: delivered, reason: "gzip stream corrupt (\(message))")
            }
        }
        delivered += produced
        return produced
    }
}
