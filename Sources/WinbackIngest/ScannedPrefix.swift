#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The start of the last JWS a worker scanned in full — its header segment and the dot after it — kept so
/// that the next JWS starting with the same bytes is scanned from after them (``SignedLine``).
///
/// An export signs every record with one certificate chain, so every JWS of a file starts with the same
/// header segment (`x5c`), most of a transaction's JWS. Comparing those bytes with `memcmp` costs
/// a fraction of checking each one for a quote, backslash or control byte, and they were checked when
/// the prefix was learned: it only ever holds bytes of a string ``PlainString`` accepted.
public struct ScannedPrefix: Sendable {
    /// Printable ASCII without a quote or backslash; empty until a JWS with a dot has been scanned.
    private(set) var bytes: [UInt8] = []

    /// No prefix yet.
    public init() {}

    /// The length of the prefix when `buffer[start..<end]` starts with it, else 0.
    func length(in buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        guard !bytes.isEmpty, end - start >= bytes.count, let base = buffer.baseAddress else { return 0 }
        let same = bytes.withUnsafeBufferPointer { prefix in prefix.baseAddress.map { memcmp($0, base + start, prefix.count) == 0 } ?? false
        }
        return same ? bytes.count : 0
    }

    /// Learns the header of the plain string `buffer[start..<stop]` (just scanned in full) when it has one.
    mutating func learn(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to stop: Int) {
        guard let base = buffer.baseAddress, stop > start,
            let dot = memchr(base + start, Int32(UInt8(ascii: ".")), stop - start)
        else { return }
        let end = base.distance(to: dot.assumingMemoryBound(to: UInt8.self)) + 1
        bytes = Array(UnsafeBufferPointer(rebasing: buffer[start..<end]))
    }
}
