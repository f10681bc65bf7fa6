#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A forward cursor over a JSON document read in chunks (docs/inputs.md): holds the bytes from the oldest value
/// still being captured (a *pin*) to what has been read, so memory is bounded by the largest captured value,
/// not by the document.
///
/// Positions are absolute byte offsets in the document. Pins nest (a group's window holds an item); a pin
/// whose span grows past ``limit`` is *overflowed*: its first ``prefixBytes`` are kept, its bytes are no
/// longer held, and whoever pinned it learns its length only.
struct DocumentCursor {
    /// Reads up to `destination.count` bytes; 0 at the end.
    typealias Read = (UnsafeMutableRawBufferPointer) throws -> Int

    /// A pinned start: its offset, and its first bytes once it overflowed.
    private struct Pin {
        var start: Int
        var overflowPrefix: [UInt8]?
    }

    /// What a pin held when it was released.
    enum Held {
        /// The bytes from the pin to the cursor.
        case bytes([UInt8])
        /// The span was longer than ``limit``: its length and first bytes.
        case overflowed(length: Int, prefix: [UInt8])
    }

    private let read: Read
    /// Bytes from absolute offset ``base`` on.
    private var buffer: [UInt8] = []
    private var base = 0
    /// The cursor, as an index in ``buffer``.
    private var index = 0
    private var pins: [Pin] = []
    /// Newlines in the document before ``countedUpTo`` (an absolute offset): lines are counted lazily, and
    /// always before bytes are dropped.
    private var newlinesBefore = 0
    private var countedUpTo = 0
    /// What each read fills (allocated at the first read).
    private var chunk: [UInt8] = []
    /// The longest span a pin holds whole.
    let limit: Int
    /// How much of an overflowed span is kept.
    static let prefixBytes = 4096
    private static let chunkBytes = 1 << 18
    /// The most bytes the cursor held at once: what reading the document cost in memory.
    private(set) var peakBufferBytes = 0
    /// Set once the source is exhausted or failed.
    private(set) var isEnd = false
    /// The error the source threw, if it did (the bytes before it were delivered).
    private(set) var readError: (any Error)?

    init(limit: Int, read: @escaping Read) {
        self.limit = limit
        self.read = read
    }

    /// The cursor's absolute offset in the document.
    var offset: Int { base + index }

    /// The 1-based line of absolute `offset` (at or after every offset asked before, and still held).
    mutating func line(at offset: Int) -> Int {
        countNewlines(upTo: offset)
        return newlinesBefore + 1
    }

    /// Counts the newlines from ``countedUpTo`` to absolute `offset` (`memchr`: a one-line document costs one call).
    private mutating func countNewlines(upTo offset: Int) {
        guard offset > countedUpTo else { return }
        let start = countedUpTo - base
        let end = min(offset - base, buffer.count)
        guard start >= 0, start < end else {
            countedUpTo = max(countedUpTo, offset)
            return
        }
        newlinesBefore += buffer.withUnsafeBufferPointer { bytes in
            guard let origin = bytes.baseAddress else { return 0 }
            var count = 0
            var position = start
            while position < end, let found = memchr(origin + position, 0x0A, end - position) {
                count += 1
                position = origin.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            }
            return count
        }
        countedUpTo = base + end
    }

    /// The byte at the cursor, reading more when needed; `nil` at the end of the document.
    mutating func peek() -> UInt8? {
        while index == buffer.count {
            guard refill() else { return nil }
        }
        return buffer[index]
    }

    /// Moves past the byte at the cursor.
    mutating func advance() { index += 1 }

    /// Skips JSON whitespace.
    mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    /// Skips a UTF-8 byte-order mark at the very start.
    mutating func skipByteOrderMark() {
        while buffer.count < 3, refill() {}
        if offset == 0, buffer.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    /// Keeps the bytes from the cursor on until ``release()``.
    mutating func pin() { pins.append(Pin(start: offset)) }

    /// Releases the newest pin and returns what it held (from the pin to the cursor).
    mutating func release() -> Held {
        let held = pinned()
        _ = pins.popLast()
        return held
    }

    /// Releases the newest pin without looking at it.
    mutating func drop() { _ = pins.popLast() }

    /// Why a value could not be skipped: a JSONParser-style reason and the absolute offset.
    struct Stop: Error {
        var reason: String
        var offset: Int
    }

    /// Moves past the JSON value at the cursor without checking it beyond its extent: a string (ended by
    /// its quote; a control character stops it), a container (strings inside skipped whole), or a scalar up
    /// to the next delimiter. Throws where the value cannot be delimited.
    mutating func skipValue() throws(Stop) {
        guard let first = peek() else { throw Stop(reason: "unexpected end of input", offset: offset) }
        switch first {
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["): try skipContainer()
        default:
            while let byte = peek() {
                switch byte {
                case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x0A, 0x0D, 0x09: return
                default: index += 1
                }
            }
        }
    }

    /// Past the string whose quote is at the cursor (its quote and escapes found with `memchr`; what lies
    /// between is checked by ``JSONParser`` where the value is parsed).
    mutating func skipString() throws(Stop) {
        index += 1
        while true {
            if index >= buffer.count {
                // `index` may be one past the end: an escape's second byte not read yet.
                let escaped = index - buffer.count
                index = buffer.count
                guard refill() else { throw Stop(reason: "unterminated string", offset: offset) }
                index += escaped
                continue
            }
            let (position, isQuote) = buffer.withUnsafeBufferPointer { bytes in
                Self.quoteOrBackslash(in: bytes, from: index)
            }
            guard let position else {
                index = buffer.count
                continue
            }
            index = position + (isQuote ? 1 : 2)
            if isQuote { return }
        }
    }

    /// The first `"` or `\\` at or after `start`, and whether it is the quote.
    private static func quoteOrBackslash(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int?, Bool) {
        guard let base = bytes.baseAddress, start < bytes.count else { return (nil, false) }
        let quote = memchr(base + start, 0x22, bytes.count - start).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }
        let end = quote ?? bytes.count
        if let backslash = memchr(base + start, 0x5C, end - start) {
            return (base.distance(to: backslash.assumingMemoryBound(to: UInt8.self)), false)
        }
        return (quote, quote != nil)
    }

    /// Past the object or array whose bracket is at the cursor.
    private mutating func skipContainer() throws(Stop) {
        var depth = 0
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "\""):
                try skipString()
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    index += 1
                    return
                }
            default: break
            }
            index += 1
        }
        throw Stop(reason: "unexpected end of input", offset: offset)
    }

    /// The bytes the newest pin holds so far, without releasing it.
    func pinned() -> Held {
        guard let pin = pins.last else { return .bytes([]) }
        if let prefix = pin.overflowPrefix { return .overflowed(length: offset - pin.start, prefix: prefix) }
        if offset - pin.start > limit {
            return .overflowed(length: offset - pin.start, prefix: Array(buffer[(pin.start - base)...].prefix(Self.prefixBytes)))
        }
        return .bytes(Array(buffer[(pin.start - base)..<index]))
    }

    /// Keeps only the oldest pin (or pins the cursor when none is held), for what is left of a broken document.
    mutating func keepOldestPin() {
        if let first = pins.first { pins = [first] } else { pin() }
    }

    /// Drops the oldest pin (the document's own, once its first record is read).
    mutating func dropOldestPin() {
        if !pins.isEmpty { pins.removeFirst() }
    }

    /// Reads every byte left (so the file's digest covers it); pins hold what they may of it.
    mutating func readToEnd() {
        repeat { index = buffer.count } while refill()
    }

    /// Reads the next chunk, first dropping the bytes no pin holds; marks overflowed pins. `false` at the end.
    private mutating func refill() -> Bool {
        guard !isEnd else { return false }
        for position in pins.indices where pins[position].overflowPrefix == nil && offset - pins[position].start > limit {
            pins[position].overflowPrefix = Array(buffer[(pins[position].start - base)...].prefix(Self.prefixBytes))
        }
        let held = pins.first { $0.overflowPrefix == nil }?.start ?? offset
        let droppable = min(index, held - base)
        if droppable > 0 {
            countNewlines(upTo: base + droppable)
            buffer.removeFirst(droppable)
            base += droppable
            index -= droppable
        }
        if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: Self.chunkBytes) }
        var count = 0
        do {
            count = try chunk.withUnsafeMutableBytes { try read($0) }
        } catch {
            readError = error
        }
        buffer.append(contentsOf: chunk[0..<count])
        peakBufferBytes = max(peakBufferBytes, buffer.count)
        if count == 0 { isEnd = true }
        return count > 0
    }
}
