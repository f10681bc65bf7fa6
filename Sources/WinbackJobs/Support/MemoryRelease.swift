#if canImport(Glibc)
import Glibc
#endif

/// glibc heap settings for large runs. Both functions are in `<malloc.h>`, which the Glibc module does not
/// export, so they are looked up at run time; where they do not exist these calls do nothing.
public enum MemoryRelease {
    /// One malloc arena for all threads. The ingest workers allocate the deduplicated store and the model
    /// is built on another thread; with per-thread arenas the store's freed memory was not reused for the
    /// model and a 10 M-transaction run peaked higher. No measurable cost on ingest. Call once at start.
    public static func useSingleArena() {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        if let mallopt = function("mallopt", as: Mallopt.self) { _ = mallopt(-8, 1) }  // M_ARENA_MAX = -8
    }

    /// Returns freed heap pages to the system between phases (`malloc_trim`), so the transient allocations
    /// of verification (JSON trees, payload bytes) do not count in the peak RSS of the model phase.
    static func trim() {
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
