/// A file that cannot be read or written: fatal for the run (exit 74), naming the path.
public struct IOError: Error, Sendable, CustomStringConvertible {
    /// The file or directory.
    public var path: String
    /// What failed (the system's message where there is one).
    public var reason: String

    /// An error about `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}
