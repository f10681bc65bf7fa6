import WinbackIO

/// One input file: its config-relative path (as reported in rejects and the manifest), where it is on
/// disk, and how it is read.
public struct InputFile: Sendable, Hashable {
    public var relativePath: String
    public var absolutePath: String
    public var format: InputFormat

    public static func == (lhs: InputFile, rhs: InputFile) -> Bool { lhs.absolutePath == rhs.absolutePath }
    public func hash(into hasher: inout Hasher) { hasher.combine(absolutePath) }
}
