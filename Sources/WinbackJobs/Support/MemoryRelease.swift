#if canImport(Glibc)
    import Glibc
#endif

/// glibc heap settings for large runs. Both functions are in `<malloc.h>`, which the Glibc module does not
/// export, so they are looked up at run time; where they do not exist these calls do nothing.
public enum MemoryRelease {
    /// One malloc arena for all threads. The ingest workers allocate the deduplicated store and the model
    /// is built on another thread; with per-thread arenas the store's freed memory was not reused for the
    /// model and a 10 M-transaction run peaked higher. No measurable cost on ingest. Call once at start.
    ///
    /// Batches of lines (a few megabytes each) are served from the heap and their memory is kept for the
    /// next batch: by default glibc maps a block that size with `mmap` at first and later gives the top of
    /// the heap back after each free, so every batch buffer would be fresh pages, each a page fault.
    /// ``trim()`` still returns the memory between phases.
    public static func configureHeap() {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let mallopt = function("mallopt", as: Mallopt.self) else { return }
        _ = mallopt(-8, 1)  // M_ARENA_MAX
        _ = mallopt(-3, 32 << 20)  // M_MMAP_THRESHOLD: 32 MiB, glibc's maximum
        _ = mallopt(-1, 64 << 20)  // M_TRIM_THRESHOLD: keep up to 64 MiB free at the top of the heap
    }

    /// Returns freed heap pages to the system between phases (`malloc_trim`), so the transient allocations
    /// of verification (JSON trees, payload bytes) do not count in the peak RSS of the model phase.
    package static func trim() {
        typealias MallocTrim = @convention(c) (Int) -> Int32
        if let mallocTrim = function("malloc_trim", as: MallocTrim.self) { _ = mallocTrim(0) }
    }

    private static func function<F>(_ name: String, as type: F.Type) -> F? {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
            return unsafeBitCast(symbol, to: type)
        #else
            return nil
        #endif
    }
}
