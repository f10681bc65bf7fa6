/// A field present with the wrong JSON type or an unusable value: becomes an `invalid_field` rejection.
public struct FieldError: Error, Sendable, Equatable {
    /// The field's path inside the payload (`purchaseDate`, `data.bundleId`).
    public var field: String
    /// What was expected (`integer`, `string`, `object`).
    public var expected: String
    /// What was found, quoted (`'abc' (string)`).
    public var found: String

    /// `field` held `found` where `expected` was required.
    public init(field: String, expected: String, found: String) {
        self.field = field
        self.expected = expected
        self.found = found
    }

    /// The rejection message: `field 'purchaseDate': expected integer, found 'abc' (string)`.
    public var message: String { "field '\(field)': expected \(expected), found \(found)" }
}
