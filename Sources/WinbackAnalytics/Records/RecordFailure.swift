import WinbackAppStore

/// A record's rejection reason before its location is attached: a code and a message that says what was
/// expected and what was found.
public struct RecordFailure: Error, Sendable, Equatable {
    /// The reject code.
    public var code: RejectCode
    /// What was expected and found, naming the field.
    public var message: String

    /// A failure with `code` and `message`.
    public init(_ code: RejectCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `invalid_field` from a type error.
    public init(_ error: FieldError) {
        self.init(.invalidField, error.message)
    }

    /// `missing_field` naming the field.
    public static func missing(_ field: String) -> RecordFailure {
        RecordFailure(.missingField, "required field '\(field)' is absent")
    }
}
