import WinbackIO

/// The rows of a CSV byte stream (RFC 4180 as ``CSVFormat`` writes it), read in place: each row's fields are
/// ranges of the read buffer (a quoted field unquoted, `""` unescaped, into a scratch buffer), so reading a
/// row allocates nothing. A newline inside quotes belongs to its field; an empty unquoted field is `nil`.
/// `winback serve` reads published tables with it.
struct CSVRowReader {
    /// Where one field's bytes are.
    struct Field {
        /// In the scratch buffer (a quoted field), else in the read buffer.
        var isUnquoted: Bool
        /// The bytes' range there.
        var range: Range<Int>
    }

    /// The current row's fields, seen through pointers valid during ``withRow(_:)``.
    struct Row {
        let buffer: UnsafeRawBufferPointer
        let scratch: UnsafeRawBufferPointer
        let fields: [Field?]

        /// The number of fields.
        var count: Int { fields.count }

        /// Field `index`'s bytes, or `nil` for an empty unquoted field.
        subscript(index: Int) -> UnsafeRawBufferPointer? {
            guard let field = fields[index] else { return nil }
            return UnsafeRawBufferPointer(rebasing: (field.isUnquoted ? scratch : buffer)[field.range])
        }
    }

    private var source: any ByteSource
    private var buffer: [UInt8] = []
    private var position = 0
    private var isEnd = false
    private var fields: [Field?] = []
    private var scratch: [UInt8] = []

    init(source: any ByteSource) {
        self.source = source
    }

    /// Reads more input, keeping the bytes from `position` on; `false` at the end.
    private mutating func refill() throws -> Bool {
        guard !isEnd else { return false }
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        if try source.read(into: &buffer, maximumCount: 1 << 20) == 0 { isEnd = true }
        return !isEnd
    }

    /// Moves to the next row; `false` at the end.
    mutating func advance() throws -> Bool {
        while true {
            if parse() { return true }
            guard try refill() else {
                guard position < buffer.count else { return false }
                buffer.append(0x0A)  // the last row without its newline
                return parse()
            }
        }
    }

    /// Calls `body` with the current row (after ``advance()`` returned `true`).
    func withRow<T>(_ body: (Row) throws -> T) rethrows -> T {
        try buffer.withUnsafeBytes { buffer in
            try scratch.withUnsafeBytes { scratch in try body(Row(buffer: buffer, scratch: scratch, fields: fields)) }
        }
    }

    /// The next row's fields as copies, or `nil` at the end (for small tables).
    mutating func next() throws -> [[UInt8]?]? {
        guard try advance() else { return nil }
        return withRow { row in (0..<row.count).map { row[$0].map { Array($0) } } }
    }

    /// Parses the row starting at `position` when the buffer holds all of it (through its newline).
    private mutating func parse() -> Bool {
        fields.removeAll(keepingCapacity: true)
        scratch.removeAll(keepingCapacity: true)
        let end = buffer.count
        let start = position
        let isEnd = isEnd
        var fields = fields
        var scratch = scratch
        self.fields = []
        self.scratch = []
        defer {
            self.fields = fields
            self.scratch = scratch
        }
        let next: Int? = buffer.withUnsafeBufferPointer { bytes in
            var index = start
            var fieldStart = index
            var quotedStart: Int?
            var isQuoted = false
            while index < end {
                let byte = bytes[index]
                if isQuoted {
                    if byte == 0x22 {
                        if index + 1 < end, bytes[index + 1] == 0x22 {
                            scratch.append(0x22)
                            index += 2
                            continue
                        }
                        if index + 1 == end, !isEnd { return nil }
                        isQuoted = false
                    } else {
                        scratch.append(byte)
                    }
                    index += 1
                    continue
                }
                switch byte {
                case 0x22:
                    isQuoted = true
                    if quotedStart == nil { quotedStart = scratch.count }
                case 0x2C, 0x0A:
                    if let quoted = quotedStart {
                        fields.append(Field(isUnquoted: true, range: quoted..<scratch.count))
                    } else {
                        fields.append(index > fieldStart ? Field(isUnquoted: false, range: fieldStart..<index) : nil)
                    }
                    quotedStart = nil
                    fieldStart = index + 1
                    if byte == 0x0A { return index + 1 }
                default:
                    if quotedStart != nil { scratch.append(byte) }
                }
                index += 1
            }
            return nil
        }
        guard let next else { return false }
        position = next
        return true
    }
}
