/// Why an App Store Server API response body is not what its endpoint returns.
public struct MalformedAPIResponse: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the field.
    public var description: String

    /// A body that is wrong as `description` says.
    public init(description: String) {
        self.description = description
    }
}
