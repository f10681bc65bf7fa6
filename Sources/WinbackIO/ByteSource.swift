/// A forward-only stream of bytes read in chunks (a file, or a file through gzip).
public protocol ByteSource {
    /// Appends up to about `maximumCount` bytes to `buffer`; returns how many were appended (0 at the end).
    mutating func read(into buffer: inout [UInt8], maximumCount: Int) throws -> Int
}

/// A stream failure after some bytes were delivered (a truncated or corrupt gzip member).
public struct StreamDamage: Error, Sendable, CustomStringConvertible {
    /// Decompressed bytes delivered before the damage.
    public var offset: Int
    public var reason: String
    public var description: String { "\(reason) after \(offset) decompressed bytes" }
}
