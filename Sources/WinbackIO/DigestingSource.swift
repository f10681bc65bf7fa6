import Crypto

/// Passes a file's bytes through while computing their SHA-256 and size (for the manifest).
public final class DigestingSource: ByteSource {
    private let inner: any ByteSource
    private var hasher = SHA256()
    /// Bytes read so far.
    public private(set) var byteCount = 0

    /// A source passing `inner`'s bytes through.
    public init(_ inner: any ByteSource) {
        self.inner = inner
    }

    /// Reads from the inner source, hashing and counting what it returns.
    public func read(into destination: UnsafeMutableRawBufferPointer) throws -> Int {
        var inner = self.inner
        let count = try inner.read(into: destination)
        if count > 0 {
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: destination[..<count]))
            byteCount += count
        }
        return count
    }

    /// Lower-case hex SHA-256 of everything read so far.
    public func hexDigest() -> String { HexDigest.string(hasher.finalize()) }
}
