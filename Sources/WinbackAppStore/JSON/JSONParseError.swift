/// Why a byte buffer is not JSON, and where (a byte offset into the buffer).
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Byte offset of the problem.
    public var offset: Int
    /// What was expected there.
    public var reason: String

    /// An error at byte `offset`.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// `reason at byte offset`.
    public var description: String { "\(reason) at byte \(offset)" }
}
