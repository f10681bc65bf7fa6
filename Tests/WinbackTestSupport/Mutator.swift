/// Seeded mutations for fuzz tests (xorshift64*): one to four edits of a byte string, reproducible from the seed.
public struct Mutator {
    /// The xorshift state (the seed).
    public var state: UInt64

    /// A mutator seeded with `state` (not 0).
    public init(state: UInt64) {
        self.state = state
    }

    /// The next pseudo-random number.
    public mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// A number in `0..<bound`.
    public mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }

    /// Bytes that steer a JSON or JWS reader somewhere else.
    public static let interesting = Array(#"{}[]",:.\-+eE0123456789 nulltrufase"#.utf8) + [0x00, 0x0A, 0x0D, 0x80, 0xC3, 0xFF]

    /// `bytes` with one to four edits: a byte flipped, replaced or inserted, a range deleted or repeated,
    /// a cut, or a splice of `other`.
    public mutating func mutate(_ bytes: [UInt8], other: [UInt8]) -> [UInt8] {
        var result = bytes
        for _ in 0..<(1 + below(4)) {
            let position = below(result.count + 1)
            switch below(7) {
            case 0 where !result.isEmpty: result[min(position, result.count - 1)] ^= UInt8(truncatingIfNeeded: 1 << below(8))
            case 1 where !result.isEmpty: result[min(position, result.count - 1)] = Self.interesting[below(Self.interesting.count)]
            case 2: result.insert(Self.interesting[below(Self.interesting.count)], at: position)
            case 3:
                let end = min(result.count, position + below(64))
                result.removeSubrange(position..<end)
            case 4:
                let end = min(result.count, position + below(64))
                result.insert(contentsOf: result[position..<end], at: position)
            case 5: result = Array(result.prefix(position))
            default:
                let start = below(other.count + 1)
                result = Array(result.prefix(position)) + Array(other[start...])
            }
        }
        return result
    }
}
