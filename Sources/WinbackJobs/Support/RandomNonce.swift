import Foundation

/// Offer nonces: random (version 4) UUIDs in lower case, as StoreKit takes them.
public enum RandomNonce {
    /// A fresh nonce from the system's secure generator (`getrandom`). Foundation's `UUID()` opens
    /// `/dev/urandom` on every call on Linux, which cost as much as the rest of an offer's signing code.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var uuid = unsafeBitCast((generator.next() as UInt64, generator.next() as UInt64), to: uuid_t.self)
        uuid.6 = (uuid.6 & 0x0F) | 0x40  // version 4
        uuid.8 = (uuid.8 & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(uuid: uuid).uuidString.lowercased()
    }
}
