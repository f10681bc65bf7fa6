/// One worker's own copies of the ``JWSHeaderCache`` entries it has used (``JWSHeaderCache/Entry/privateCopy()``).
///
/// With one shared cache, every record retained and released the same entry, its key and its hash state
/// from both cores, and took the cache's lock: their cache lines moved between the cores on every record.
/// A lane is looked up first, without a lock, and holds objects no other core touches.
///
/// Not thread-safe: one task uses a lane at a time (the ingest hands lanes out from a pool).
public final class HeaderLane: @unchecked Sendable {
    private var buckets: [Int: [JWSHeaderCache.Entry]] = [:]
    private let capacity: Int

    public init(capacity: Int = 64) {
        self.capacity = capacity
    }

    func lookup(_ segment: UnsafeBufferPointer<UInt8>, hash: Int) -> JWSHeaderCache.Entry? {
        buckets[hash]?.first { $0.matches(segment) }
    }

    /// Keeps a private copy of `shared` and returns it.
    func adopt(_ shared: JWSHeaderCache.Entry, hash: Int) -> JWSHeaderCache.Entry {
        if buckets.count >= capacity { buckets.removeAll(keepingCapacity: true) }
        let copy = shared.privateCopy()
        buckets[hash, default: []].append(copy)
        return copy
    }
}
