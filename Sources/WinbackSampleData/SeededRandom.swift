/// SplitMix64: a small seeded generator so sample data is the same for the same seed on every machine.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence depends only on `seed`.
    public init(seed: UInt64) {
        state = seed &+ 0x9E37_79B9_7F4A_7C15
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// True with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool { unit() < probability }

    /// A uniform integer in `range`.
    public mutating func int(in range: ClosedRange<Int64>) -> Int64 {
        range.lowerBound + Int64(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// An element chosen by weight.
    public mutating func weighted<T>(_ choices: [(T, Double)]) -> T {
        let total = choices.reduce(0) { $0 + $1.1 }
        var point = unit() * total
        for (choice, weight) in choices {
            if point < weight { return choice }
            point -= weight
        }
        return choices[choices.count - 1].0
    }

    /// A random version-4 UUID, lower-case.
    public mutating func uuid() -> String {
        var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: next()) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}
