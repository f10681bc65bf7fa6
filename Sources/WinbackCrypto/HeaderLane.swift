/// One worker's own copies of the ``JWSHeaderCache`` entries it has used (``JWSHeaderCache/Entry/privateCopy()``).
///
/// With one shared cache, every record retained and released the same entry, its key and its hash state
/// from both cores, and took the cache's lock: their cache lines moved between the cores on every record.
/// A lane is looked up first, without a lock, and holds objects no other core touches.
///
/// Not thread-safe: one task uses a lane at a time (the ingest hands lanes out from a pool).
public final class HeaderLane: @unchecked Sendable {
    private var entries: HeaderEntries
    /// Samples the CPU of this worker's signature checks.
    public let clock = SignatureClock()

    public init(capacity: Int = 64) {
        entries = HeaderEntries(capacity: capacity)
    }

    func lookup(_ segment: UnsafeBufferPointer<UInt8>, hash: Int) -> JWSHeaderCache.Entry? {
        entries.lookup(segment, hash: hash)
    }

    /// Keeps a private copy of `shared` and returns it.
    func adopt(_ shared: JWSHeaderCache.Entry, hash: Int) -> JWSHeaderCache.Entry {
        let copy = shared.privateCopy()
        entries.insert(copy, hash: hash)
        return copy
    }
}
