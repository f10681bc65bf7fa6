/// A table row's typed values as bytes, for a row that travels between processes (a shard's `subscriptions` row
/// to the merge, docs/sharding.md): per cell a tag byte (its kind, ``Kind``; `+ 0x80` for an empty cell) and its
/// value (text: a 4-byte little-endian length and the UTF-8 bytes; numbers: 8 bytes little-endian; boolean: one
/// byte). Replayed into a ``RowFields`` it hands over exactly the values of the row it was made from, so the
/// receiver renders the same CSV and Parquet cells without reading any text back.
public struct EncodedRow: TableRow, Equatable {
    /// A cell's kind, the ``RowFields`` method it replays to.
    enum Kind: UInt8 {
        case text = 1, integer, instant, rate, money, date, boolean
    }

    /// The encoded cells.
    public let bytes: [UInt8]

    /// The encoding of `row`'s values.
    public init(_ row: some TableRow) {
        var encoder = Encoder()
        row.write(to: &encoder)
        bytes = encoder.bytes
    }

    /// Encoded cells read back (from a partial), or `nil` when `bytes` is not a whole encoding of `columns` cells.
    public init?(validating bytes: [UInt8], columns: Int) {
        var counter = CellCounter()
        guard Self.replay(bytes[...], to: &counter), counter.cells == columns else { return nil }
        self.bytes = bytes
    }

    /// Hands the encoded values to `fields`, in the order they were encoded.
    public func write(to fields: inout some RowFields) {
        _ = Self.replay(bytes[...], to: &fields)
    }

    /// Replays `bytes` into `fields`; `false` (having stopped) at a cell that is cut short or of no known kind.
    static func replay(_ bytes: ArraySlice<UInt8>, to fields: inout some RowFields) -> Bool {
        var index = bytes.startIndex
        func integer(width: Int) -> UInt64? {
            guard index + width <= bytes.endIndex else { return nil }
            var value: UInt64 = 0
            for offset in 0..<width { value |= UInt64(bytes[index + offset]) << UInt64(8 * offset) }
            index += width
            return value
        }
        while index < bytes.endIndex {
            let tag = bytes[index]
            index += 1
            guard let kind = Kind(rawValue: tag & 0x7F) else { return false }
            let isEmpty = tag & 0x80 != 0
            switch kind {
            case .text:
                if isEmpty {
                    fields.text(nil)
                } else {
                    guard let length = integer(width: 4).map(Int.init), index + length <= bytes.endIndex else { return false }
                    bytes[index..<(index + length)].withUnsafeBytes { fields.text(utf8: $0) }
                    index += length
                }
            case .boolean:
                if isEmpty {
                    fields.boolean(nil)
                } else {
                    guard let value = integer(width: 1) else { return false }
                    fields.boolean(value != 0)
                }
            case .integer, .instant, .rate, .money, .date:
                var value: Int64?
                if !isEmpty {
                    guard let raw = integer(width: 8) else { return false }
                    value = Int64(bitPattern: raw)
                }
                switch kind {
                case .integer: fields.integer(value)
                case .instant: fields.instant(value)
                case .rate: fields.rate(value)
                case .money: fields.money(value)
                default: fields.date(value)
                }
            }
        }
        return true
    }

    /// Writes the encoding.
    struct Encoder: RowFields {
        var bytes: [UInt8] = []

        mutating func text(_ value: String?) {
            guard let value else { return bytes.append(Kind.text.rawValue | 0x80) }
            bytes.append(Kind.text.rawValue)
            let utf8 = value.utf8
            append(UInt64(utf8.count), width: 4)
            bytes.append(contentsOf: utf8)
        }

        mutating func integer(_ value: Int64?) { number(.integer, value) }
        mutating func instant(_ milliseconds: Int64?) { number(.instant, milliseconds) }
        mutating func rate(_ millionths: Int64?) { number(.rate, millionths) }
        mutating func money(_ milliunits: Int64?) { number(.money, milliunits) }
        mutating func date(_ days: Int64?) { number(.date, days) }

        mutating func boolean(_ value: Bool?) {
            guard let value else { return bytes.append(Kind.boolean.rawValue | 0x80) }
            bytes.append(Kind.boolean.rawValue)
            bytes.append(value ? 1 : 0)
        }

        private mutating func number(_ kind: Kind, _ value: Int64?) {
            guard let value else { return bytes.append(kind.rawValue | 0x80) }
            bytes.append(kind.rawValue)
            append(UInt64(bitPattern: value), width: 8)
        }

        private mutating func append(_ value: UInt64, width: Int) {
            for offset in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * offset))) }
        }
    }

    /// Counts the cells of an encoding (``init(validating:columns:)``).
    private struct CellCounter: RowFields {
        var cells = 0
        mutating func text(_ value: String?) { cells += 1 }
        mutating func integer(_ value: Int64?) { cells += 1 }
        mutating func instant(_ milliseconds: Int64?) { cells += 1 }
        mutating func rate(_ millionths: Int64?) { cells += 1 }
        mutating func money(_ milliunits: Int64?) { cells += 1 }
        mutating func date(_ days: Int64?) { cells += 1 }
        mutating func boolean(_ value: Bool?) { cells += 1 }
    }
}
