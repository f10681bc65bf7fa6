import Crypto
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Parsed headers (and their chain evaluations) by the header segment's bytes, bounded in size.
/// Lookups hash a sample of the segment in place and confirm with `memcmp`, so a hit allocates nothing
/// and does not hash every byte of a header of several kilobytes.
public final class JWSHeaderCache: Sendable {
    /// One distinct header: a class, so a hit hands out one reference instead of copying the parsed
    /// header and chain evaluation (a dozen retains and releases per record).
    public final class Entry: Sendable {
        let segment: [UInt8]
        let header: JWSHeader
        /// `nil` when the header is malformed or its `x5c` is unusable (nothing to evaluate).
        let chain: ChainEvaluation?
        /// SHA-256 of the signing input's start, `<header segment>.`, not finalized: the digest of a
        /// record with this header continues from here over its payload segment. The header is ~85 %
        /// of a transaction's signing input.
        let signingPrefix: SHA256
        /// What a record still needs checked when the header and its chain passed every check that does
        /// not depend on the record; `nil` when one failed (the record then takes the checks one by one).
        let clean: Clean?

        /// The record-dependent part of the checks for a clean header.
        struct Clean: Sendable {
            /// The intersection of the chain's validity windows, whole epoch seconds, bounds inclusive.
            let validFrom: Int64
            let validUntil: Int64
            let leafKey: P256.Signing.PublicKey
        }

        convenience init(segment: [UInt8], header: JWSHeader, chain: ChainEvaluation?) {
            self.init(segment: segment, header: header, chain: chain, leafKey: chain?.leafKey)
        }

        private init(segment: [UInt8], header: JWSHeader, chain: ChainEvaluation?, leafKey: P256.Signing.PublicKey?) {
            self.segment = segment
            self.header = header
            self.chain = chain
            var prefix = SHA256()
            prefix.update(data: segment)
            prefix.update(data: [UInt8(ascii: ".")])
            signingPrefix = prefix
            if header.malformed == nil, header.algorithmFailure == nil, header.chainFailure == nil, let chain, let leafKey,
                chain.decodeFailure == nil, chain.chainFailure == nil, chain.oidFailure == nil
            {
                clean = Clean(
                    validFrom: chain.validityWindows.map(\.notBeforeSeconds).max() ?? .min,
                    validUntil: chain.validityWindows.map(\.notAfterSeconds).min() ?? .max, leafKey: leafKey)
            } else {
                clean = nil
            }
        }

        /// An equal entry that shares no object a record touches with this one — its own bytes, hash state
        /// and key object — for one worker's ``VerifierScratch``: reference counts of shared objects
        /// bounced between the cores on every record.
        func privateCopy() -> Entry {
            let key = chain?.leafKey.flatMap { try? P256.Signing.PublicKey(rawRepresentation: $0.rawRepresentation) }
            return Entry(segment: segment.withUnsafeBufferPointer { Array($0) }, header: header, chain: chain, leafKey: key)
        }

        /// Whether this entry's segment is `segment`, byte for byte.
        func matches(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
            segment.count == other.count
                && segment.withUnsafeBufferPointer { stored in
                    guard let a = stored.baseAddress, let b = other.baseAddress else { return stored.isEmpty }
                    return memcmp(a, b, stored.count) == 0
                }
        }
    }

    private let entries: Mutex<HeaderEntries>

    init(capacity: Int = 1024) {
        entries = Mutex(HeaderEntries(capacity: capacity))
    }

    /// FNV-1a over the length, every 61st 8-byte word and the last word: distinct chains differ in their
    /// certificates' keys and signatures throughout, and a collision only costs one extra `memcmp`.
    static func hash(_ segment: UnsafeBufferPointer<UInt8>) -> Int {
        let raw = UnsafeRawBufferPointer(segment)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(raw.count)
        var offset = 0
        while offset + 8 <= raw.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x100_0000_01b3
            offset += 61
        }
        if raw.count >= 8 { hash = (hash ^ raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash)
    }

    func lookup(_ segment: UnsafeBufferPointer<UInt8>, hash: Int) -> Entry? {
        entries.withLock { $0.lookup(segment, hash: hash) }
    }

    func insert(_ entry: Entry, hash: Int) {
        entries.withLock { $0.insert(entry, hash: hash) }
    }
}
