/// Typed reads of JSON member values for the Apple models. `null` reads as absent (`nil`).
public enum FieldValue {
    /// Describes a found value for an error message: `'abc' (string)`, `12.5 (number)`.
    public static func describe(_ value: JSONValue) -> String {
        let text: String
        switch value {
        case .string(let string): text = "'" + (string.count > 40 ? String(string.prefix(40)) + "…" : string) + "'"
        case .object: text = "{…}"
        case .array: text = "[…]"
        default: text = JSONText.render(value)
        }
        return "\(text) (\(value.typeName))"
    }

    private static func mismatch(_ value: JSONValue, field: String, expected: String) -> FieldError {
        FieldError(field: field, expected: expected, found: describe(value))
    }

    // Field names are autoclosures: the callers build paths (`prefix + "originalTransactionId"`), and
    // building them for every field of every record cost a heap allocation each; only errors need them.
    /// A string field; `nil` for null, else a type error naming `field`.
    public static func string(_ value: JSONValue, field: @autoclosure () -> String) throws(FieldError) -> String? {
        switch value {
        case .null: return nil
        case .string(let string): return string
        default: throw mismatch(value, field: field(), expected: "string")
        }
    }

    /// An app account token: any string; `""` is absent.
    public static func token(_ value: JSONValue, field: @autoclosure () -> String) throws(FieldError) -> String? {
        guard let string = try string(value, field: field()), !string.isEmpty else { return nil }
        return string
    }

    /// An integer field (Int64); `nil` for null, else a type error naming `field`.
    public static func int64(_ value: JSONValue, field: @autoclosure () -> String) throws(FieldError) -> Int64? {
        switch value {
        case .null: return nil
        case .integer(let number): return number
        default: throw mismatch(value, field: field(), expected: "integer")
        }
    }

    /// The instants a payload may hold, epoch ms: from 2007-01-01T00:00:00Z (before the App Store) to the
    /// end of 9999-12-31, so that every instant formats as `YYYY-MM-DDTHH:MM:SS.sssZ` and no sum of an
    /// instant and a period overflows.
    public static let instantRange: ClosedRange<Int64> = 1_167_609_600_000...253_402_300_799_999

    /// An instant field (epoch ms within ``instantRange``); `nil` for null, else an error naming `field`.
    public static func instant(_ value: JSONValue, field: @autoclosure () -> String) throws(FieldError) -> Int64? {
        guard let number = try int64(value, field: field()) else { return nil }
        guard instantRange.contains(number) else {
            throw FieldError(field: field(), expected: "an instant from 2007-01-01 to 9999-12-31 (epoch ms)", found: String(number))
        }
        return number
    }

    /// An integer field within Int32; `nil` for null, else a type error naming `field`.
    public static func int32(_ value: JSONValue, field: @autoclosure () -> String) throws(FieldError) -> Int32? {
        switch value {
        case .null: return nil
        case .integer(let number):
            guard let narrow = Int32(exactly: number) else {
                throw mismatch(value, field: field(), expected: "32-bit integer")
            }
            return narrow
        default: throw mismatch(value, field: field(), expected: "integer")
        }
    }

    /// A boolean field; `nil` for null, else a type error naming `field`.
    public static func bool(_ value: JSONValue, field: @autoclosure () -> String) throws(FieldError) -> Bool? {
        switch value {
        case .null: return nil
        case .bool(let flag): return flag
        default: throw mismatch(value, field: field(), expected: "boolean")
        }
    }

    /// An array of strings; `nil` for null, else a type error naming `field` or its element.
    public static func stringArray(_ value: JSONValue, field: @autoclosure () -> String) throws(FieldError) -> [String]? {
        switch value {
        case .null: return nil
        case .array(let elements):
            var strings: [String] = []
            strings.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                guard case .string(let string) = element.value else {
                    throw mismatch(element.value, field: "\(field())[\(index)]", expected: "string")
                }
                strings.append(string)
            }
            return strings
        default: throw mismatch(value, field: field(), expected: "array of strings")
        }
    }

    /// An object's members; `nil` for null, else a type error naming `field`.
    public static func object(_ value: JSONValue, field: @autoclosure () -> String) throws(FieldError) -> [JSONMember]? {
        switch value {
        case .null: return nil
        case .object(let members): return members
        default: throw mismatch(value, field: field(), expected: "object")
        }
    }

    /// An array's elements; `nil` for null, else a type error naming `field`.
    public static func array(_ value: JSONValue, field: @autoclosure () -> String) throws(FieldError) -> [JSONElement]? {
        switch value {
        case .null: return nil
        case .array(let elements): return elements
        default: throw mismatch(value, field: field(), expected: "array")
        }
    }

    /// A nested object kept as JSON (Advanced Commerce and commitment info).
    public static func rawObject(_ value: JSONValue, field: @autoclosure () -> String) throws(FieldError) -> JSONValue? {
        switch value {
        case .null: return nil
        case .object: return value
        default: throw mismatch(value, field: field(), expected: "object")
        }
    }

    /// A nested Apple object, decoded with `make` and the field's path as prefix.
    public static func nested<T>(
        _ value: JSONValue, field: String, as make: ([JSONMember], String) throws(FieldError) -> T
    ) throws(FieldError) -> T? {
        guard let members = try object(value, field: field) else { return nil }
        return try make(members, field + ".")
    }

    /// An array of nested Apple objects; a non-object element is a type error naming its index.
    public static func nestedArray<T>(
        _ value: JSONValue, field: String, as make: ([JSONMember], String) throws(FieldError) -> T
    ) throws(FieldError) -> [T]? {
        guard let elements = try array(value, field: field) else { return nil }
        var items: [T] = []
        items.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let path = "\(field)[\(index)]"
            guard case .object(let members) = element.value else {
                throw FieldError(field: path, expected: "object", found: describe(element.value))
            }
            items.append(try make(members, path + "."))
        }
        return items
    }
}
