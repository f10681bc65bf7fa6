#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits a byte stream into physical lines, numbered from 1.
///
/// A trailing `\r` is not part of the line; a UTF-8 BOM at the start is skipped. A line may be as long
/// as ``maximumLineBytes``; a longer one is delivered as its first bytes only and flagged
/// (``LineBatch/overlongLines``), and reading resumes after its newline, so memory stays bounded whatever
/// the input (a gzip bomb without a newline, say). Lines come in batches (``nextBatch(maximumLines:)``): the source
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
    /// The longest line held whole, in bytes.
    public let maximumLineBytes: Int
    /// How much of an over-long line is kept: its start, for the rejection's `record`.
    public static let overlongPrefixBytes = 4096
    /// The default ``maximumLineBytes``: 16 MiB, far above any real App Store record.
    public static let defaultMaximumLineBytes = 16 << 20
    /// A last line without a line end is not delivered but kept in ``unterminatedTail``: for a file another
    /// process appends to (`winback serve`'s `notifications/received/`), whose last line may be mid-write.
    public var dropsUnterminatedLastLine = false
    /// The last line without a line end that ``dropsUnterminatedLastLine`` held back.
    public private(set) var unterminatedTail: [UInt8] = []

    /// A reader of `source`'s lines, holding lines of at most `maximumLineBytes` bytes whole.
    public init(source: any ByteSource, maximumLineBytes: Int = LineReader.defaultMaximumLineBytes) {
        self.source = source
        self.maximumLineBytes = max(1, maximumLineBytes)
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
            var overlong: [Int: Int] = [:]
            let maximumLineBytes = self.maximumLineBytes
            /// Adds line `number` at `range`, or its first bytes and its length when it is over the limit.
            func append(_ number: Int, _ range: Range<Int>, isBlank: (Range<Int>) -> Bool) {
                if range.count > maximumLineBytes, isBlank(range) {
                    // A blank line is not a record, whatever its length: delivered empty.
                    lines.append((number, range.lowerBound..<range.lowerBound))
                } else if range.count > maximumLineBytes {
                    overlong[number] = range.count
                    lines.append((number, range.lowerBound..<(range.lowerBound + min(Self.overlongPrefixBytes, range.count))))
                } else {
                    lines.append((number, range))
                }
            }
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
                            append(linesFound, rest..<end) {
                                Self.isBlank(UnsafeBufferPointer(start: base + $0.lowerBound, count: $0.count))
                            }
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
                if carried.count >= maximumLineBytes || capacity >= maximumLineBytes + Self.chunkSize {
                    return skipOverlongLine()
                }
                capacity = min(capacity * 2, maximumLineBytes + Self.chunkSize)
                continue
            }
            if isEnd, lines.count < maximumLines, !carried.isEmpty {
                if damage != nil {
                    damagedTail = carried
                } else if dropsUnterminatedLastLine {
                    unterminatedTail = carried
                } else {
                    // The last line has no line end.
                    let end = bytes.last == UInt8(ascii: "\r") ? bytes.count - 1 : bytes.count
                    linesFound += 1
                    append(linesFound, rest..<end) { range in
                        bytes.withUnsafeBufferPointer { Self.isBlank(UnsafeBufferPointer(rebasing: $0[range])) }
                    }
                }
                carried = []
            }
            guard let last = lines.last else { return nil }
            lineNumber = last.number
            var batch = LineBatch(bytes: bytes, lines: lines)
            batch.overlongLines = overlong
            return batch
        }
    }

    /// Delivers the incomplete line in ``carried``, over the limit, as its first bytes; reads and drops the
    /// rest of it up to its newline (or the end), counting its length.
    private mutating func skipOverlongLine() -> LineBatch {
        var length = carried.count
        let prefix = Array(carried.prefix(Self.overlongPrefixBytes))
        var isBlank = carried.withUnsafeBufferPointer { Self.isBlank($0) }
        carried = []
        var scratch = [UInt8](repeating: 0, count: Self.chunkSize)
        while !isEnd {
            let count: Int
            do {
                count = try scratch.withUnsafeMutableBytes { try source.read(into: $0) }
            } catch {
                damage = error
                isEnd = true
                break
            }
            if count == 0 {
                isEnd = true
            } else if let newline = scratch[..<count].firstIndex(of: 0x0A) {
                length += newline > 0 && scratch[newline - 1] == UInt8(ascii: "\r") ? newline - 1 : newline
                isBlank = isBlank && scratch.withUnsafeBufferPointer { Self.isBlank(UnsafeBufferPointer(rebasing: $0[..<newline])) }
                carried = Array(scratch[(newline + 1)..<count])
                break
            } else {
                length += count
                isBlank = isBlank && scratch.withUnsafeBufferPointer { Self.isBlank(UnsafeBufferPointer(rebasing: $0[..<count])) }
            }
        }
        linesFound += 1
        lineNumber = linesFound
        if isBlank {
            // A blank line is not a record, whatever its length: delivered empty.
            return LineBatch(bytes: [], lines: [(linesFound, 0..<0)])
        }
        var batch = LineBatch(bytes: prefix, lines: [(linesFound, 0..<prefix.count)])
        batch.overlongLines = [linesFound: length]
        return batch
    }

    /// Whether `bytes` hold only spaces, tabs and carriage returns (a blank line).
    static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
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
}
