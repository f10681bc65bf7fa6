/// A parsed JSON value.
///
/// Integers that fit in `Int64` stay exact (`integer`); every other number is a `double`. Object members
/// keep their source order and their byte range, so a reader can locate a nested value in its file.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONElement])
    case object([JSONMember])

    /// The JSON type name used in error messages (`string`, `integer`, `number`, `boolean`, `array`, `object`, `null`).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The members when this is an object.
    public var objectMembers: [JSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The value of the member named `key` (the last one when a key repeats, as most JSON readers do),
    /// when this is an object.
    public subscript(key: String) -> JSONValue? {
        member(key)?.value
    }

    /// The member named `key` with its byte range (the last one when a key repeats), when this is an object.
    public func member(_ key: String) -> JSONMember? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }
    }

    /// The value as a string, when it is one.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }
}

/// One member of a JSON object: its key, its value and the byte range of the value in the source.
public struct JSONMember: Sendable, Equatable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: JSONValue
    /// Byte offsets of the value (not the key) in the parsed buffer.
    public var range: Range<Int>

    /// A member `key: value` whose value's text is `range` of the parsed bytes.
    public init(key: String, value: JSONValue, range: Range<Int>) {
        self.key = key
        self.value = value
        self.range = range
    }
}

/// One element of a JSON array with its byte range in the source.
public struct JSONElement: Sendable, Equatable {
    /// The element's value.
    public var value: JSONValue
    /// Byte offsets of the element in the parsed buffer.
    public var range: Range<Int>

    /// An element whose text is `range` of the parsed bytes.
    public init(value: JSONValue, range: Range<Int>) {
        self.value = value
        self.range = range
    }
}
