/// What was read from one input file: its size and SHA-256 (of the file as stored, compressed or not).
public struct InputStats: Sendable, Equatable {
    /// The path relative to the config file.
    public var path: String
    /// The file's size in bytes, as stored.
    public var bytes: Int
    /// Lower-case hex SHA-256 of the file's bytes.
    public var sha256: String

    /// The stats of the file at config-relative `path`: `bytes` as stored, lower-case hex `sha256`.
    public init(path: String, bytes: Int, sha256: String) {
        self.path = path
        self.bytes = bytes
        self.sha256 = sha256
    }
}
