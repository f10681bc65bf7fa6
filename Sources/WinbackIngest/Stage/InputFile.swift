import WinbackIO

/// One input file: its config-relative path (as reported in rejects and the manifest), where it is on
/// disk, and how it is read.
public struct InputFile: Sendable, Hashable {
    /// The path relative to the config file.
    public var relativePath: String
    /// The absolute path.
    public var absolutePath: String
    /// NDJSON or document, gzip or not (from the suffix).
    public var format: InputFormat

    /// The file at `absolutePath`, named `relativePath` (relative to the config) in rejects and manifests.
    public init(relativePath: String, absolutePath: String, format: InputFormat) {
        self.relativePath = relativePath
        self.absolutePath = absolutePath
        self.format = format
    }

    /// Whether the file is one `winback serve` appends pushed notifications to (a `notifications/received/`
    /// directory, docs/notifications-pushed.md): its last line, when it has no line end, is still being written and is not read.
    public var isReceivedNotifications: Bool {
        absolutePath.contains("/notifications/received/")
    }

    /// The same file.
    public static func == (lhs: InputFile, rhs: InputFile) -> Bool { lhs.absolutePath == rhs.absolutePath }
    /// Hashes the absolute path.
    public func hash(into hasher: inout Hasher) { hasher.combine(absolutePath) }
}
