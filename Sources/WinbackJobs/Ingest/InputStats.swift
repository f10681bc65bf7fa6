/// What was read from one input file: its size and SHA-256 (of the file as stored, compressed or not).
public struct InputStats: Sendable, Equatable {
    public var path: String
    public var bytes: Int
    public var sha256: String
}
