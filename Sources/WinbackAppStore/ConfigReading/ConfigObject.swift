/// Typed, located reads from one object of the config; every error names the dotted key.
package struct ConfigObject {
    package let members: [JSONMember]
    package let key: String

    package init(_ value: JSONValue, key: String) throws(ConfigError) {
        guard case .object(let members) = value else {
            throw ConfigError(key: key.isEmpty ? "(file)" : key, message: "expected an object, found \(FieldValue.describe(value))")
        }
        self.members = members
        self.key = key
    }

    private func path(_ name: String) -> String { key.isEmpty ? name : "\(key).\(name)" }

    package func allowOnly(_ allowed: Set<String>) throws(ConfigError) {
        for member in members where !allowed.contains(member.key) {
            throw ConfigError(
                key: path(member.key), message: "unknown key (allowed here: \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    package func optional(_ name: String) -> JSONValue? {
        guard let value = members.last(where: { $0.key == name })?.value, value != .null else { return nil }
        return value
    }

    package func required(_ name: String) throws(ConfigError) -> JSONValue {
        guard let value = optional(name) else { throw ConfigError(key: path(name), message: "required key is missing") }
        return value
    }

    package func string(_ name: String) throws(ConfigError) -> String {
        let value = try required(name)
        guard case .string(let string) = value, !string.isEmpty else {
            throw ConfigError(key: path(name), message: "expected a non-empty string, found \(FieldValue.describe(value))")
        }
        return string
    }

    package func optionalString(_ name: String) throws(ConfigError) -> String? {
        guard optional(name) != nil else { return nil }
        return try string(name)
    }

    package func integer(_ name: String) throws(ConfigError) -> Int64 {
        let value = try required(name)
        guard case .integer(let number) = value else {
            throw ConfigError(key: path(name), message: "expected an integer, found \(FieldValue.describe(value))")
        }
        return number
    }

    package func optionalInteger(_ name: String) throws(ConfigError) -> Int64? {
        guard optional(name) != nil else { return nil }
        return try integer(name)
    }

    package func number(_ name: String) throws(ConfigError) -> Double {
        switch try required(name) {
        case .integer(let number): return Double(number)
        case .double(let number): return number
        case let other: throw ConfigError(key: path(name), message: "expected a number, found \(FieldValue.describe(other))")
        }
    }

    package func optionalBool(_ name: String) throws(ConfigError) -> Bool? {
        guard let value = optional(name) else { return nil }
        guard case .bool(let flag) = value else {
            throw ConfigError(key: path(name), message: "expected true or false, found \(FieldValue.describe(value))")
        }
        return flag
    }

    package func stringArray(_ name: String) throws(ConfigError) -> [String] {
        let value = try required(name)
        guard case .array(let elements) = value else {
            throw ConfigError(key: path(name), message: "expected an array of strings, found \(FieldValue.describe(value))")
        }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let string) = element.value, !string.isEmpty else {
                throw ConfigError(
                    key: "\(path(name))[\(index)]", message: "expected a non-empty string, found \(FieldValue.describe(element.value))")
            }
            strings.append(string)
        }
        return strings
    }
}
