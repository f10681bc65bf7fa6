/// The bytes of an in-memory buffer as a ``ByteSource``, at most `chunk` bytes per read (tests use
/// small chunks to cut headers, lines and trailers at every boundary).
public struct MemoryByteSource: ByteSource {
    public let bytes: [UInt8]
    public let chunk: Int
    private var offset = 0

    public init(bytes: [UInt8], chunk: Int = .max) {
        self.bytes = bytes
        self.chunk = chunk
    }

    public mutating func read(into destination: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(chunk, destination.count, bytes.count - offset)
        bytes[offset..<offset + count].withUnsafeBytes { destination.copyMemory(from: $0) }
        offset += count
        return count
    }
}
