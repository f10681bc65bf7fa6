import CIsal

/// Streams the decompressed bytes of a gzip file (concatenated members included) through ISA-L's igzip
/// inflate; each member's CRC-32 and length are checked against its trailer.
///
/// Memory stays at two fixed buffers whatever the file size. A truncated or corrupt stream throws
/// ``StreamDamage`` after delivering every byte that decompressed cleanly.
public final class GzipReader: ByteSource {
    private var source: any ByteSource
    private let inflater: OpaquePointer
    /// Compressed bytes read from the source: `input[inputOffset..<inputCount]` are not inflated yet.
    private var input = [UInt8](repeating: 0, count: GzipReader.chunkSize)
    private var inputOffset = 0
    private var inputCount = 0
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
        if inputOffset < inputCount || isSourceFinished { return }
        inputOffset = 0
        inputCount = try input.withUnsafeMutableBytes { try source.read(into: $0) }
        if inputCount == 0 { isSourceFinished = true }
    }

    public func read(into destination: UnsafeMutableRawBufferPointer) throws -> Int {
        if isFinished { return 0 }
        guard let output = destination.baseAddress?.assumingMemoryBound(to: UInt8.self), destination.count > 0 else { return 0 }
        var produced = 0
        while produced == 0 {
            try refill()
            if inputOffset >= inputCount && isSourceFinished {
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
                winback_inflater_run(
                    inflater, inBuffer.baseAddress! + inputOffset, inputCount - inputOffset, &consumed,
                    output + produced, destination.count - produced, &written)
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
