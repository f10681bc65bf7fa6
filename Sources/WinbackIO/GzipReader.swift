import CIsal

/// Streams the decompressed bytes of a gzip file (concatenated members included) through ISA-L's igzip
/// inflate; each member's CRC-32 and length are checked against its trailer.
///
/// Memory stays at two fixed buffers whatever the file size. A truncated or corrupt stream throws
/// ``StreamDamage`` after delivering every byte that decompressed cleanly.
public final class GzipReader: ByteSource {
    private var source: any ByteSource
    private let inflater: OpaquePointer
    private var input: [UInt8] = []
    private var inputOffset = 0
    private var isSourceFinished = false
    private var isFinished = false
    private var delivered = 0
    private var memberEnded = false
    private static let chunkSize = 1 << 18

    public init(source: any ByteSource) throws(IOError) {
        self.source = source
        guard let inflater = winback_inflater_create() else { throw IOError(path: "", reason: "gzip: out of memory for the inflate state") }
        self.inflater = inflater
    }

    deinit {
        winback_inflater_destroy(inflater)
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
                winback_inflater_reset(inflater)
                memberEnded = false
            }
            var consumed = 0
            var written = 0
            let status = input.withUnsafeBufferPointer { inBuffer in
                buffer.withUnsafeMutableBufferPointer { outBuffer in
                    winback_inflater_run(
                        inflater, inBuffer.baseAddress! + inputOffset, inBuffer.count - inputOffset, &consumed,
                        outBuffer.baseAddress! + start + produced, maximumCount - produced, &written)
                }
            }
            inputOffset += consumed
            produced += written
            if status == WINBACK_INFLATER_MEMBER_END {
                memberEnded = true
            } else if status < 0 {
                isFinished = true
                delivered += produced
                throw StreamDamage(offset: delivered, reason: "gzip stream corrupt (\(String(cString: winback_inflater_error(status))))")
            }
        }
        delivered += produced
        return produced
    }
}
