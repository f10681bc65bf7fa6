import Synchronization

/// Parsed headers (and their chain evaluations) by the header segment's bytes, bounded in size.
/// Lookups hash the segment in place and compare bytes, so a hit allocates nothing.
final class JWSHeaderCache: Sendable {
    struct Entry: Sendable {
        var segment: [UInt8]
        var header: JWSHeader
        var chain: ChainEvaluation?
    }

    private let buckets = Mutex<[Int: [Entry]]>([:])
    private let capacity: Int

    init(capacity: Int = 1024) {
        self.capacity = capacity
    }

    static func hash(_ segment: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(segment))
        return hasher.finalize()
    }

    func lookup(_ segment: UnsafeBufferPointer<UInt8>, hash: Int) -> Entry? {
        buckets.withLock { buckets in
            buckets[hash]?.first { $0.segment.elementsEqual(segment) }
        }
    }

    func insert(_ entry: Entry, hash: Int) {
        buckets.withLock { buckets in
            if buckets.count >= capacity { buckets.removeAll(keepingCapacity: true) }
            buckets[hash, default: []].append(entry)
        }
    }
}
