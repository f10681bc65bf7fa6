import WinbackAppStore

/// What a command ends with on stdout (README: Commands): one JSON object on one line, whatever the command. Every
/// job's outcome says what its summary holds; rendering it is this protocol's, once.
public protocol CommandSummary {
    /// The summary: `command`, `exitCode` and the command's own counts.
    var summary: JSONValue { get }
}

extension CommandSummary {
    /// ``summary`` rendered on one line, for stdout.
    public var summaryLine: String { JSONText.render(summary) }
}
