/// Header-cache entries by their segment's hash, bounded: emptied when it holds `capacity` hashes. The
/// table behind both the shared ``JWSHeaderCache`` (under its lock) and each worker's ``VerifierScratch``.
struct HeaderEntries: Sendable {
    private var buckets: [Int: [JWSHeaderCache.Entry]] = [:]
    private let capacity: Int

    /// An empty table that holds at most `capacity` distinct hashes before it starts over.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The entry whose segment is `segment`, byte for byte.
    func lookup(_ segment: UnsafeBufferPointer<UInt8>, hash: Int) -> JWSHeaderCache.Entry? {
        buckets[hash]?.first { $0.matches(segment) }
    }

    /// Adds `entry` under `hash` (emptying the table first when it is full).
    mutating func insert(_ entry: JWSHeaderCache.Entry, hash: Int) {
        if buckets.count >= capacity { buckets.removeAll(keepingCapacity: true) }
        buckets[hash, default: []].append(entry)
    }
}
