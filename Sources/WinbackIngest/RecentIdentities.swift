import WinbackAnalytics

/// The ``SubscriptionIdentity`` last made for each of a few hundred subscriptions (direct-mapped by a
/// hash of `originalTransactionId`), so the next transaction of a subscription reuses it instead of
/// allocating an object and up to three strings. Exports list a subscription's transactions together
/// (in the generated datasets 5 lines in 6 follow one of the same subscription), so most transactions hit.
struct RecentIdentities {
    private var slots: [SubscriptionIdentity?] = Array(repeating: nil, count: 512)

    /// The identity with these fields: `appAccountToken` is compared lower-cased and an empty one is
    /// absent, as ``SubscriptionTransaction`` keeps it. `make` builds it when no recent one matches.
    mutating func identity(
        originalTransactionId: UnsafeBufferPointer<UInt8>, appAccountToken: UnsafeBufferPointer<UInt8>?,
        appTransactionId: UnsafeBufferPointer<UInt8>?, make: () -> SubscriptionIdentity
    ) -> SubscriptionIdentity {
        let hash = ByteSpelling.hash(originalTransactionId)
        let slot = Int(truncatingIfNeeded: (hash >> 32) % UInt64(slots.count))
        if let recent = slots[slot], ByteSpelling.matches(recent.originalTransactionId, originalTransactionId),
            Self.sameToken(recent.appAccountToken, appAccountToken), ByteSpelling.matches(recent.appTransactionId, appTransactionId)
        {
            return recent
        }
        let made = make()
        slots[slot] = made
        return made
    }

    /// `token` (lower-cased, never empty) against the payload's bytes (empty = absent).
    private static func sameToken(_ token: String?, _ bytes: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard let bytes, !bytes.isEmpty else { return token == nil }
        guard var token else { return false }
        return token.withUTF8 { stored in
            stored.count == bytes.count
                && zip(stored, bytes).allSatisfy { stored, byte in stored == ByteSpelling.lowercased(byte) }
        }
    }
}
