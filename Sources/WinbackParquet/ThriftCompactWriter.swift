/// Thrift's compact protocol, as much of it as Parquet's footer and page headers need: structs of i32,
/// i64, binary, bool, list and struct fields (Apache Thrift, "Thrift Compact protocol encoding").
///
/// A field header is one byte `delta << 4 | type` when the field id is 1…15 past the previous one, else
/// the type byte and the id as a zigzag varint; integers are zigzag varints; a struct ends with a 0 byte.
struct ThriftCompactWriter {
    /// Compact type ids.
    enum FieldType: UInt8 {
        case booleanTrue = 1, booleanFalse = 2, i32 = 5, i64 = 6, binary = 8, list = 9, structure = 12
    }

    /// The encoded bytes.
    private(set) var bytes: [UInt8] = []
    /// The last field id written in each open struct.
    private var lastFieldIds: [Int16] = [0]

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func zigzag(_ value: Int64) { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    private mutating func fieldHeader(_ id: Int16, _ type: FieldType) {
        let delta = Int(id) - Int(lastFieldIds[lastFieldIds.count - 1])
        if delta > 0, delta <= 15 {
            bytes.append(UInt8(delta) << 4 | type.rawValue)
        } else {
            bytes.append(type.rawValue)
            zigzag(Int64(id))
        }
        lastFieldIds[lastFieldIds.count - 1] = id
    }

    mutating func i32(_ id: Int16, _ value: Int32) {
        fieldHeader(id, .i32)
        zigzag(Int64(value))
    }

    mutating func i64(_ id: Int16, _ value: Int64) {
        fieldHeader(id, .i64)
        zigzag(value)
    }

    mutating func binary(_ id: Int16, _ value: [UInt8]) {
        fieldHeader(id, .binary)
        varint(UInt64(value.count))
        bytes += value
    }

    mutating func string(_ id: Int16, _ value: String) { binary(id, Array(value.utf8)) }

    mutating func bool(_ id: Int16, _ value: Bool) { fieldHeader(id, value ? .booleanTrue : .booleanFalse) }

    /// A struct field: `body` writes its fields.
    mutating func structure(_ id: Int16, _ body: (inout ThriftCompactWriter) -> Void) {
        fieldHeader(id, .structure)
        structBody(body)
    }

    /// A struct's fields and its stop byte (for the top-level struct and list elements).
    mutating func structBody(_ body: (inout ThriftCompactWriter) -> Void) {
        lastFieldIds.append(0)
        body(&self)
        bytes.append(0)
        lastFieldIds.removeLast()
    }

    private mutating func listHeader(_ id: Int16, count: Int, elementType: FieldType) {
        fieldHeader(id, .list)
        if count < 15 {
            bytes.append(UInt8(count) << 4 | elementType.rawValue)
        } else {
            bytes.append(0xF0 | elementType.rawValue)
            varint(UInt64(count))
        }
    }

    /// A list of i32 (enum values).
    mutating func i32List(_ id: Int16, _ values: [Int32]) {
        listHeader(id, count: values.count, elementType: .i32)
        for value in values { zigzag(Int64(value)) }
    }

    /// A list of strings.
    mutating func stringList(_ id: Int16, _ values: [String]) {
        listHeader(id, count: values.count, elementType: .binary)
        for value in values {
            varint(UInt64(value.utf8.count))
            bytes += Array(value.utf8)
        }
    }

    /// A list of structs, each written by `element`.
    mutating func structList<T>(_ id: Int16, _ values: [T], _ element: (inout ThriftCompactWriter, T) -> Void) {
        listHeader(id, count: values.count, elementType: .structure)
        for value in values { structBody { element(&$0, value) } }
    }
}
