import WinbackIO

/// Decompresses gzip bytes in tests.
public enum Gunzip {
    public static func bytes(_ compressed: [UInt8]) throws -> [UInt8] {
        var reader = try GzipReader(source: MemoryByteSource(bytes: compressed))
        var output: [UInt8] = []
        while try reader.read(into: &output, maximumCount: 1 << 16) > 0 {}
        return output
    }

    public static func text(_ compressed: [UInt8]) throws -> String {
        String(decoding: try bytes(compressed), as: UTF8.self)
    }
}
