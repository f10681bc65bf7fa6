import WinbackIO

/// Decompresses gzip bytes in tests.
public enum Gunzip {
    struct Source: ByteSource {
        var bytes: [UInt8]
        var offset = 0

        mutating func read(into buffer: inout [UInt8], maximumCount: Int) throws -> Int {
            let count = min(maximumCount, bytes.count - offset)
            buffer.append(contentsOf: bytes[offset..<offset + count])
            offset += count
            return count
        }
    }

    public static func bytes(_ compressed: [UInt8]) throws -> [UInt8] {
        let reader = try GzipReader(source: Source(bytes: compressed))
        var output: [UInt8] = []
        while try reader.read(into: &output, maximumCount: 1 << 16) > 0 {}
        return output
    }

    public static func text(_ compressed: [UInt8]) throws -> String {
        String(decoding: try bytes(compressed), as: UTF8.self)
    }
}
