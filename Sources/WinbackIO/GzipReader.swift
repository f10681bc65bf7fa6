import CGzip

/// Streams the decompressed bytes of a gzip file (concatenated members included); each member's CRC-32
/// and length are checked against its trailer. The inflate engine is ISA-L's igzip where it is installed
/// (loaded at run time) and zlib otherwise: see ``GzipReader/Engine``.
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

    /// An inflate engine. Both give the same bytes and refuse the same damaged streams.
    public enum Engine: String, Sendable, CaseIterable {
        /// ISA-L's igzip (libisal.so.2, loaded at run time when the build saw ISA-L's header).
        case isal
        /// The system zlib: always available.
        case zlib

        /// The engine readers use unless told otherwise: ISA-L when it loads, else zlib.
        /// `WINBACK_INFLATER=zlib` in the environment chooses zlib.
        public static var preferred: Engine {
            winback_inflater_engine() == WINBACK_INFLATER_ISAL ? .isal : .zlib
        }

        /// Whether this engine can be used in this process.
        public var isAvailable: Bool { self == .zlib || Engine.preferred == .isal }

        var kind: winback_inflater_engine_kind {
            switch self {
            case .isal: WINBACK_INFLATER_ISAL
            case .zlib: WINBACK_INFLATER_ZLIB
            }
        }
    }

    /// A reader of `source` inflated by `engine`; throws when the engine is not available or memory is short.
    public init(source: any ByteSource, engine: Engine = .preferred) throws(IOError) {
        self.source = source
        guard let inflater = winback_inflater_create(engine.kind) else {
            throw IOError(path: "", reason: "gzip: the \(engine.rawValue) inflater could not be created (not available or out of memory)")
        }
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

    /// Fills `destination` with inflated bytes; 0 at the end. Throws ``StreamDamage`` for a corrupt or truncated stream.
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
            let status = input.withUnsafeBytes { inBuffer in
                winback_inflater_run(
                    inflater, inBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self).advanced(by: inputOffset),
                    inputCount - inputOffset, &consumed, output + produced, destination.count - produced, &written)
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
