import WinbackIO

@testable import WinbackParquet

/// A small Parquet reader for the tests: Thrift compact structs decoded into field-id maps, then each
/// column chunk's dictionary page (if any) and data page inflated and its definition levels and PLAIN values
/// or dictionary indices decoded. It reads only
/// what ``ParquetWriter`` writes, so a test can check every value, null and statistic it wrote.
struct ParquetTestReader {
    /// A decoded Thrift value.
    indirect enum Thrift: Equatable {
        case integer(Int64)
        case binary([UInt8])
        case boolean(Bool)
        case list([Thrift])
        case structure([Int16: Thrift])

        subscript(_ id: Int16) -> Thrift? {
            if case .structure(let fields) = self { return fields[id] }
            return nil
        }
        var integer: Int64? {
            if case .integer(let value) = self { return value }
            return nil
        }
        var binary: [UInt8]? {
            if case .binary(let value) = self { return value }
            return nil
        }
        var list: [Thrift] {
            if case .list(let values) = self { return values }
            return []
        }
        var string: String? { binary.map { String(decoding: $0, as: UTF8.self) } }
    }

    struct Failure: Error { var description: String }

    let bytes: [UInt8]
    let footer: Thrift

    init(_ bytes: [UInt8]) throws {
        self.bytes = bytes
        guard bytes.count >= 12, bytes.prefix(4).elementsEqual(Array("PAR1".utf8)), bytes.suffix(4).elementsEqual(Array("PAR1".utf8))
        else { throw Failure(description: "no PAR1 magic") }
        let lengthBytes = bytes[(bytes.count - 8)..<(bytes.count - 4)].map(Int.init)
        let length = lengthBytes[0] | lengthBytes[1] << 8 | lengthBytes[2] << 16 | lengthBytes[3] << 24
        var cursor = bytes.count - 8 - length
        footer = try Self.structure(bytes, &cursor)
        guard cursor == bytes.count - 8 else { throw Failure(description: "footer length mismatch") }
    }

    static func varint(_ bytes: [UInt8], _ cursor: inout Int) throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard cursor < bytes.count else { throw Failure(description: "varint past the end") }
            let byte = bytes[cursor]
            cursor += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    static func zigzag(_ bytes: [UInt8], _ cursor: inout Int) throws -> Int64 {
        let raw = try varint(bytes, &cursor)
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    static func value(_ type: UInt8, _ bytes: [UInt8], _ cursor: inout Int) throws -> Thrift {
        switch type {
        case 1: return .boolean(true)
        case 2: return .boolean(false)
        case 5, 6: return .integer(try zigzag(bytes, &cursor))
        case 8:
            let length = Int(try varint(bytes, &cursor))
            defer { cursor += length }
            return .binary(Array(bytes[cursor..<(cursor + length)]))
        case 9:
            let header = bytes[cursor]
            cursor += 1
            var count = Int(header >> 4)
            if count == 15 { count = Int(try varint(bytes, &cursor)) }
            return .list(try (0..<count).map { _ in try value(header & 0x0F, bytes, &cursor) })
        case 12: return try structure(bytes, &cursor)
        default: throw Failure(description: "thrift type \(type)")
        }
    }

    static func structure(_ bytes: [UInt8], _ cursor: inout Int) throws -> Thrift {
        var fields: [Int16: Thrift] = [:]
        var last: Int16 = 0
        while true {
            let header = bytes[cursor]
            cursor += 1
            if header == 0 { return .structure(fields) }
            let delta = header >> 4
            let id = delta == 0 ? Int16(try zigzag(bytes, &cursor)) : last + Int16(delta)
            fields[id] = try value(header & 0x0F, bytes, &cursor)
            last = id
        }
    }

    /// Inflates the page whose header starts at `cursor`: its header and its bytes.
    func page(at cursor: Int) throws -> (header: Thrift, bytes: [UInt8]) {
        var cursor = cursor
        let header = try Self.structure(bytes, &cursor)
        let compressed = Int(header[3]?.integer ?? 0)
        var source = try GzipReader(source: MemoryByteSource(bytes: Array(bytes[cursor..<(cursor + compressed)])))
        var page: [UInt8] = []
        while try source.read(into: &page, maximumCount: 1 << 16) > 0 {}
        guard page.count == Int(header[2]?.integer ?? -1) else { throw Failure(description: "uncompressed size") }
        return (header, page)
    }

    /// `count` PLAIN BYTE_ARRAY values from `cursor` on.
    static func plainStrings(_ page: [UInt8], from cursor: Int, count: Int) -> [[UInt8]] {
        var cursor = cursor
        return (0..<count).map { _ in
            let length = (0..<4).reduce(0) { $0 | Int(page[cursor + $1]) << (8 * $1) }
            defer { cursor += 4 + length }
            return Array(page[(cursor + 4)..<(cursor + 4 + length)])
        }
    }

    /// `count` values of the RLE/bit-packing hybrid of `width` bits from `cursor` on (RLE_DICTIONARY indices).
    static func hybrid(_ page: [UInt8], from cursor: Int, width: Int, count: Int) throws -> [Int] {
        var cursor = cursor
        var values: [Int] = []
        while values.count < count {
            let header = try varint(page, &cursor)
            if header & 1 == 1 {
                let groups = Int(header >> 1)
                var bit = 0
                for _ in 0..<(groups * 8) {
                    var value = 0
                    for position in 0..<width where page[cursor + (bit + position) / 8] & (1 << ((bit + position) % 8)) != 0 {
                        value |= 1 << position
                    }
                    values.append(value)
                    bit += width
                }
                cursor += groups * width
            } else {
                let bytes = (width + 7) / 8
                let value = (0..<bytes).reduce(0) { $0 | Int(page[cursor + $1]) << (8 * $1) }
                values += Array(repeating: value, count: Int(header >> 1))
                cursor += bytes
            }
        }
        return Array(values.prefix(count))
    }

    /// Column `index`'s values over all row groups (`nil` for a null), each an integer, bytes or boolean.
    func column(_ index: Int) throws -> [ParquetValue?] {
        let physical = footer[2]?.list[index + 1][1]?.integer ?? -1
        var result: [ParquetValue?] = []
        for group in footer[4]?.list ?? [] {
            let chunk = group[1]?.list[index]
            var dictionary: [[UInt8]]?
            if let offset = chunk?[3]?[11]?.integer {
                let (header, page) = try self.page(at: Int(offset))
                guard header[1]?.integer == 2 else { throw Failure(description: "expected a dictionary page") }
                dictionary = Self.plainStrings(page, from: 0, count: Int(header[7]?[1]?.integer ?? 0))
            }
            let (header, page) = try self.page(at: Int(chunk?[3]?[9]?.integer ?? 0))
            let count = Int(header[5]?[1]?.integer ?? 0)
            let levelsLength = Int(page[0]) | Int(page[1]) << 8 | Int(page[2]) << 16 | Int(page[3]) << 24
            var levelCursor = 4
            let run = try Self.varint(page, &levelCursor)
            guard run & 1 == 1 else { throw Failure(description: "expected a bit-packed run") }
            let levels = page[levelCursor..<(4 + levelsLength)]
            var valueCursor = 4 + levelsLength
            let present = (0..<count).filter { levels[levels.startIndex + $0 / 8] & (1 << ($0 % 8)) != 0 }.count
            var indices: [Int] = []
            if let dictionary {
                guard header[5]?[2]?.integer == 8 else { throw Failure(description: "expected RLE_DICTIONARY values") }
                indices = try Self.hybrid(page, from: valueCursor + 1, width: Int(page[valueCursor]), count: present)
                guard indices.allSatisfy({ $0 < dictionary.count }) else { throw Failure(description: "index past the dictionary") }
            }
            var booleanIndex = 0
            var presentIndex = 0
            for row in 0..<count {
                let isPresent = levels[levels.startIndex + row / 8] & (1 << (row % 8)) != 0
                guard isPresent else {
                    result.append(nil)
                    continue
                }
                defer { presentIndex += 1 }
                if let dictionary {
                    result.append(.bytes(dictionary[indices[presentIndex]]))
                    continue
                }
                switch physical {
                case 0:
                    result.append(.boolean(page[valueCursor + booleanIndex / 8] & (1 << (booleanIndex % 8)) != 0))
                    booleanIndex += 1
                case 1:
                    let raw = (0..<4).reduce(UInt32(0)) { $0 | UInt32(page[valueCursor + $1]) << (8 * UInt32($1)) }
                    result.append(.integer(Int64(Int32(bitPattern: raw))))
                    valueCursor += 4
                case 2:
                    let raw = (0..<8).reduce(UInt64(0)) { $0 | UInt64(page[valueCursor + $1]) << (8 * UInt64($1)) }
                    result.append(.integer(Int64(bitPattern: raw)))
                    valueCursor += 8
                default:
                    let value = Self.plainStrings(page, from: valueCursor, count: 1)[0]
                    result.append(.bytes(value))
                    valueCursor += 4 + value.count
                }
            }
        }
        return result
    }
}
