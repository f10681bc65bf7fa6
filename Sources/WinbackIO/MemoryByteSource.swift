/// The bytes of an in-memory buffer as a ``ByteSource``, at most `chunk` bytes per read (tests use
/// small chunks to cut headers, lines and trailers at every boundary).
public struct MemoryByteSource: ByteSource {
    /// The bytes served.
    public let bytes: [UInt8]
    /// Most bytes one read returns (tests use small chunks to cross every boundary).
    public let chunk: Int
    private var offset = 0

    /// A source serving `bytes` at most `chunk` at a time.
    public init(bytes: [UInt8], chunk: Int = .max) {
        self.bytes = bytes
        self.chunk = chunk
    }

    /// Copies the next bytes into `destination`; 0 at the end.
    public mutating func read(into destination: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(chunk, destination.count, bytes.count - offset)
        bytes[offset..<offset + count].withUnsafeBytes { destination.copyMemory(from: $0) }
        offset += count
        return count
    }
}
