#if canImport(Glibc)
import Glibc
#endif

/// Returns freed heap pages to the system between phases (glibc `malloc_trim`), so the transient
/// allocations of verification (JSON trees, payload bytes) do not count in the peak RSS of the model
/// phase. A no-op where `malloc_trim` does not exist.
enum MemoryRelease {
    static func trim() {
        #if canImport(Glibc)
        // malloc_trim is in <malloc.h>, which the Glibc module does not export.
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            typealias MallocTrim = @convention(c) (Int) -> Int32
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        }
        #endif
    }
}
