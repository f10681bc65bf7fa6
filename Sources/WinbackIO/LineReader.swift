#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a byte stream into physical lines, numbered from 1.
///
/// A trailing `\r` is not part of the line; a UTF-8 BOM at the start is skipped. Lines may be of any
/// length (a 10 MB line is one line); memory holds one chunk plus the longest line.
public struct LineReader {
    private var source: any ByteSource
    private var buffer: [UInt8] = []
    private var position = 0
    private var isEnd = false
    private var isFirst = true
    public private(set) var lineNumber = 0
    /// Set when the stream broke: the error, after the complete lines before it were delivered.
    public private(set) var damage: (any Error)?
    /// The incomplete line that was being read when the stream broke (not delivered as a line).
    public private(set) var damagedTail: [UInt8] = []
    private static let chunkSize = 1 << 18

    public init(source: any ByteSource) {
        self.source = source
    }

    /// The next line (without `\n` / `\r\n`), or `nil` at the end or at damage (see ``damage``).
    /// The closure receives the line's bytes; the buffer is reused, so copy what must outlive the call.
    public mutating func nextLine<T>(_ body: (ArraySlice<UInt8>) throws -> T) rethrows -> T? {
        while true {
            if let newline = Self.newline(in: buffer, from: position) {
                var end = newline
                if end > position, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let start = position
                position = newline + 1
                lineNumber += 1
                return try body(buffer[start..<end])
            }
            if isEnd {
                guard position < buffer.count else { return nil }
                if damage != nil {
                    damagedTail = Array(buffer[position...])
                    position = buffer.count
                    return nil
                }
                var end = buffer.count
                if buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let start = position
                position = buffer.count
                lineNumber += 1
                return try body(buffer[start..<end])
            }
            if position > 0 {
                buffer.removeSubrange(0..<position)
                position = 0
            }
            do {
                if try source.read(into: &buffer, maximumCount: Self.chunkSize) == 0 { isEnd = true }
            } catch {
                damage = error
                isEnd = true
            }
            if isFirst, buffer.count >= 3 || isEnd {
                isFirst = false
                if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
            }
        }
    }

    /// The index of the first `\n` at or after `start` (`memchr`: a 6.6 KB record line is scanned in
    /// about 100 ns instead of a byte-by-byte loop).
    private static func newline(in buffer: [UInt8], from start: Int) -> Int? {
        guard start < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { bytes -> Int? in
            guard let base = bytes.baseAddress, let found = memchr(base + start, 0x0A, bytes.count - start) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Reads everything that is left (for JSON documents, which are parsed whole).
    public mutating func readRemaining() throws -> [UInt8] {
        while !isEnd {
            if try source.read(into: &buffer, maximumCount: Self.chunkSize) == 0 { isEnd = true }
        }
        var result = Array(buffer[position...])
        if isFirst, result.starts(with: [0xEF, 0xBB, 0xBF]) { result.removeFirst(3) }
        isFirst = false
        position = buffer.count
        return result
    }
}
