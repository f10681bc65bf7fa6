/// How an input file is read, decided by its case-sensitive suffix (docs/inputs.md).
public struct InputFormat: Sendable, Equatable {
    /// NDJSON (one record per line) or a JSON document (streamed element by element).
    public enum Shape: Sendable, Equatable {
        case ndjson
        case document
    }

    /// NDJSON lines or one JSON document.
    public var shape: Shape
    /// Whether the file is gzip (`.gz`).
    public var isGzip: Bool

    /// A format of `shape`, gzip or not.
    public init(shape: Shape, isGzip: Bool) {
        self.shape = shape
        self.isGzip = isGzip
    }

    /// `.ndjson` / `.jsonl` → NDJSON, `.json` → document, each optionally followed by `.gz`; else `nil`.
    public init?(path: String) {
        var name = Substring(path)
        isGzip = name.hasSuffix(".gz")
        if isGzip { name = name.dropLast(3) }
        if name.hasSuffix(".ndjson") || name.hasSuffix(".jsonl") {
            shape = .ndjson
        } else if name.hasSuffix(".json") {
            shape = .document
        } else {
            return nil
        }
    }
}
