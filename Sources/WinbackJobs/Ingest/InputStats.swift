/// What was read from one input file: its size and SHA-256 (of the file as stored, compressed or not).
public struct InputStats: Sendable, Equatable {
    /// The path relative to the config file.
    public var path: String
    /// The file's size in bytes, as stored.
    public var bytes: Int
    /// Lower-case hex SHA-256 of the file's bytes.
    public var sha256: String
}
