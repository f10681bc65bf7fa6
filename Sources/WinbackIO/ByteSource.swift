/// A forward-only stream of bytes read in chunks (a file, or a file through gzip).
public protocol ByteSource {
    /// Writes up to `destination.count` bytes at the start of `destination`; returns how many (0 at the end).
    mutating func read(into destination: UnsafeMutableRawBufferPointer) throws -> Int
}

extension ByteSource {
    /// Appends up to `maximumCount` bytes to `buffer`; returns how many were appended (0 at the end).
    /// The room is zero-filled first; the ingest path reads into uninitialized batch storage instead.
    public mutating func read(into buffer: inout [UInt8], maximumCount: Int) throws -> Int {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: maximumCount))
        var count = 0
        defer { buffer.removeLast(maximumCount - count) }
        count = try buffer.withUnsafeMutableBytes { raw in try read(into: UnsafeMutableRawBufferPointer(rebasing: raw[start...])) }
        return count
    }
}

/// A stream failure after some bytes were delivered (a truncated or corrupt gzip member).
public struct StreamDamage: Error, Sendable, CustomStringConvertible {
    /// Decompressed bytes delivered before the damage.
    public var offset: Int
    /// What went wrong.
    public var reason: String
    /// `reason after N decompressed bytes`.
    public var description: String { "\(reason) after \(offset) decompressed bytes" }
}
