#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Compares a kept string with the bytes a payload spells it with, without building a `String`, and
/// hashes such bytes (FNV-1a) for the tables that look kept values up by them.
public enum ByteSpelling {
    /// FNV-1a's offset basis: the hash of no bytes.
    public static let emptyHash: UInt64 = 0xcbf2_9ce4_8422_2325

    /// `hash` with `value` mixed in (one FNV-1a step).
    public static func mix(_ hash: UInt64, _ value: UInt64) -> UInt64 { (hash ^ value) &* 0x100_0000_01b3 }

    /// `hash` with every byte of `bytes` mixed in.
    public static func mix(_ hash: UInt64, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        bytes.reduce(hash) { mix($0, UInt64($1)) }
    }

    /// The FNV-1a hash of `bytes` alone (mixed into ``emptyHash``).
    public static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 { mix(emptyHash, bytes) }

    /// `byte` lower-cased if it is an ASCII capital letter.
    public static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// `text.lowercased()`, without building a new string when there is nothing to lower-case (no ASCII
    /// capital, nothing outside ASCII): tokens are usually stored lower-case already.
    public static func lowercased(_ text: String) -> String {
        text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A || $0 >= 0x80 }) ? text.lowercased() : text
    }

    /// Both absent, or the string's UTF-8 is exactly `bytes`.
    public static func matches(_ string: String?, _ bytes: UnsafeBufferPointer<UInt8>?) -> Bool {
        switch (string, bytes) {
        case (nil, nil): return true
        case (var string?, let bytes?):
            return string.withUTF8 { stored in
                guard stored.count == bytes.count, let a = stored.baseAddress, let b = bytes.baseAddress else {
                    return stored.count == bytes.count
                }
                return memcmp(a, b, bytes.count) == 0
            }
        default: return false
        }
    }
}
