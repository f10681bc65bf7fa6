import Crypto

/// The holdout hash of docs/campaigns.md: the first 8 bytes of SHA-256 of the UTF-8 input, as a big-endian
/// unsigned integer. Anyone can recompute who was held out: `sha256("winback-q4:<account key>")`.
public enum HoldoutHash {
    /// The first 8 bytes of SHA-256(`input`), big-endian.
    public static func bucket(_ input: String) -> UInt64 {
        SHA256.hash(data: Array(input.utf8)).prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }
}
