#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits a byte stream into physical lines, numbered from 1.
///
/// A trailing `\r` is not part of the line; a UTF-8 BOM at the start is skipped. Lines may be of any
/// length (a 10 MB line is one line). Lines come in batches (``nextBatch(maximumLines:)``): the source
/// writes straight into a batch's own buffer, which is handed over whole, so no line is copied and the
/// buffer is never zero-filled; only the incomplete line at its end is copied into the next batch.
/// Memory holds one batch (``batchCapacity``, or the longest line) plus what the caller keeps.
public struct LineReader {
    private var source: any ByteSource
    /// Bytes read but not yet delivered: the start of an incomplete line.
    private var carried: [UInt8] = []
    private var isEnd = false
    private var isFirst = true
    /// Lines found so far (the number of the last line in the last batch).
    private var linesFound = 0
    /// ``nextLine(_:)``'s batch and the index of its next line.
    private var current = LineBatch(bytes: [], lines: [])
    private var nextInCurrent = 0
    /// The number of the last line delivered (by ``nextLine(_:)``, or the last of a batch).
    public private(set) var lineNumber = 0
    /// Set when the stream broke: the error, after the complete lines before it were delivered.
    public private(set) var damage: (any Error)?
    /// The incomplete line that was being read when the stream broke (not delivered as a line).
    public private(set) var damagedTail: [UInt8] = []
    /// Bytes a batch buffer holds unless one line is longer (then it grows to hold that line).
    public static let batchCapacity = 1 << 21
    /// The least room a read is given.
    private static let chunkSize = 1 << 18

    /// A reader of `source`'s lines.
    public init(source: any ByteSource) {
        self.source = source
    }

    /// The next complete lines, at most `maximumLines` and as many as fit in ``batchCapacity`` (at least
    /// one); `nil` at the end or at damage (see ``damage``). Each read fills the buffer's free room, so a
    /// batch ended by its capacity carries only its incomplete last line over; one ended by
    /// `maximumLines` carries the rest of its last read (copied), so keep the limit above the lines a
    /// buffer holds.
    public mutating func nextBatch(maximumLines: Int) -> LineBatch? {
        var capacity = max(Self.batchCapacity, carried.count + Self.chunkSize)
        while true {
            var lines: [(number: Int, range: Range<Int>)] = []
            var rest = 0
            var lineTooLong = false
            let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { storage, filled in
                guard let base = storage.baseAddress else {
                    filled = 0
                    return
                }
                carried.withUnsafeBufferPointer { carried in
                    if let start = carried.baseAddress { base.update(from: start, count: carried.count) }
                }
                filled = carried.count
                var searched = 0
                while true {
                    if !isFirst {
                        while lines.count < maximumLines,
                            let found = memchr(base + searched, 0x0A, filled - searched)?.assumingMemoryBound(to: UInt8.self)
                        {
                            let newline = base.distance(to: found)
                            let end = newline > rest && base[newline - 1] == UInt8(ascii: "\r") ? newline - 1 : newline
                            linesFound += 1
                            lines.append((linesFound, rest..<end))
                            rest = newline + 1
                            searched = rest
                        }
                        if lines.count >= maximumLines || isEnd { return }
                        searched = filled
                    }
                    if capacity - filled < Self.chunkSize && !isFirst {
                        lineTooLong = lines.isEmpty
                        return
                    }
                    do {
                        let count = try source.read(into: UnsafeMutableRawBufferPointer(start: base + filled, count: capacity - filled))
                        if count == 0 { isEnd = true }
                        filled += count
                    } catch {
                        damage = error
                        isEnd = true
                    }
                    if isFirst, filled >= 3 || isEnd {
                        isFirst = false
                        if filled >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { rest = 3 }
                        searched = rest
                    }
                }
            }
            carried = Array(bytes[rest...])
            if lineTooLong {
                capacity *= 2
                continue
            }
            if isEnd, lines.count < maximumLines, !carried.isEmpty {
                if damage != nil {
                    damagedTail = carried
                } else {
                    // The last line has no line end.
                    let end = bytes.last == UInt8(ascii: "\r") ? bytes.count - 1 : bytes.count
                    linesFound += 1
                    lines.append((linesFound, rest..<end))
                }
                carried = []
            }
            guard let last = lines.last else { return nil }
            lineNumber = last.number
            return LineBatch(bytes: bytes, lines: lines)
        }
    }

    /// The next line (without `\n` / `\r\n`), or `nil` at the end or at damage (see ``damage``).
    /// The closure receives the line's bytes; the buffer is reused, so copy what must outlive the call.
    public mutating func nextLine<T>(_ body: (ArraySlice<UInt8>) throws -> T) rethrows -> T? {
        if nextInCurrent == current.lines.count {
            guard let batch = nextBatch(maximumLines: 256) else { return nil }
            current = batch
            nextInCurrent = 0
        }
        let line = current.lines[nextInCurrent]
        nextInCurrent += 1
        lineNumber = line.number
        return try body(current.bytes[line.range])
    }

    /// Reads everything that is left (for JSON documents, which are parsed whole). Call it on a fresh
    /// reader: lines already in a batch are not included.
    public mutating func readRemaining() throws -> [UInt8] {
        var result = carried
        carried = []
        while !isEnd {
            if try source.read(into: &result, maximumCount: Self.chunkSize) == 0 { isEnd = true }
        }
        if isFirst, result.starts(with: [0xEF, 0xBB, 0xBF]) { result.removeFirst(3) }
        isFirst = false
        return result
    }
}
