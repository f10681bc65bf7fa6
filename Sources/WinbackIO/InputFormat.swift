/// How an input file is read, decided by its case-sensitive suffix (SPEC §10).
public struct InputFormat: Sendable, Equatable {
    /// NDJSON (one record per line) or a JSON document (parsed whole).
    public enum Shape: Sendable, Equatable {
        case ndjson
        case document
    }

    public var shape: Shape
    public var isGzip: Bool

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
