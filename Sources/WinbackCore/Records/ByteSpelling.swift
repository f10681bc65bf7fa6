#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Compares a kept string with the bytes a payload spells it with, without building a `String`.
enum ByteSpelling {
    /// Both absent, or the string's UTF-8 is exactly `bytes`.
    static func matches(_ string: String?, _ bytes: UnsafeBufferPointer<UInt8>?) -> Bool {
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
