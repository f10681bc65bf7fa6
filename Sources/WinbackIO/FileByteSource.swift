#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file in chunks with POSIX `read(2)`; closes it when released.
///
/// With `direct`, the file is read with `O_DIRECT` where its file system allows it: whole aligned chunks
/// (``directChunkSize``) go from the disk into a buffer of this source's own, bypassing the page cache,
/// and are copied out from there. An export is read once per run and the page cache does not keep it
/// between nights, so a buffered read would copy every byte out of freshly allocated cache pages, which
/// costs far more system CPU (docs/performance.md).
/// A file system without `O_DIRECT` (procfs; tmpfs on older kernels) gets plain reads.
public final class FileByteSource: ByteSource {
    private var descriptor: Int32
    /// The file read.
    public let path: String
    /// The aligned chunk direct reads land in (`nil` for plain reads) and the part not handed out yet.
    private var chunk: UnsafeMutableRawBufferPointer?
    private var chunkStart = 0
    private var chunkEnd = 0
    /// Bytes per direct read: a multiple of every block size `O_DIRECT` requires alignment to.
    public static let directChunkSize = 1 << 20

    /// Linux's `O_DIRECT`, which Glibc's Swift module leaves out (it needs `_GNU_SOURCE`); its value
    /// differs between architectures, and on others no direct reads are tried.
    #if os(Linux) && arch(x86_64)
        private static let directFlag: Int32? = 0o40000
    #elseif os(Linux) && arch(arm64)
        private static let directFlag: Int32? = 0o200000
    #else
        private static let directFlag: Int32? = nil
    #endif

    /// Opens `path` for reading (with `O_DIRECT` when `direct` and the file system allows it) or throws
    /// ``IOError`` naming it and the OS reason.
    public init(path: String, direct: Bool = false) throws(IOError) {
        self.path = path
        descriptor = -1
        if direct, let flag = Self.directFlag {
            descriptor = open(path, O_RDONLY | O_CLOEXEC | flag)
            if descriptor >= 0 { chunk = .allocate(byteCount: Self.directChunkSize, alignment: 4096) }
        }
        if descriptor < 0 { descriptor = open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw IOError(path: path, reason: String(cString: strerror(errno))) }
    }

    deinit {
        close(descriptor)
        chunk?.deallocate()
    }

    /// Whether reads bypass the page cache.
    public var isDirect: Bool { chunk != nil }

    /// Reads the next bytes into `destination`; 0 at the end of the file.
    public func read(into destination: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = destination.baseAddress, destination.count > 0 else { return 0 }
        guard let chunk else { return try read(base, count: destination.count) }
        if chunkStart == chunkEnd {
            chunkStart = 0
            chunkEnd = try readDirect(chunk)
            if !isDirect { return try read(into: destination) }
        }
        let count = min(destination.count, chunkEnd - chunkStart)
        guard let chunkBase = chunk.baseAddress else { return 0 }
        base.copyMemory(from: chunkBase + chunkStart, byteCount: count)
        chunkStart += count
        return count
    }

    /// One direct read into `buffer`. A file system that rejects it (`EINVAL`) turns this source into a
    /// plain one (the file position has not moved) and 0 is returned.
    private func readDirect(_ buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            guard let base = buffer.baseAddress else { return 0 }
            let count = Glibc.read(descriptor, base, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            if errno == EINVAL, let flag = Self.directFlag, fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~flag) == 0 {
                chunk?.deallocate()
                chunk = nil
                return 0
            }
            throw IOError(path: path, reason: String(cString: strerror(errno)))
        }
    }

    private func read(_ base: UnsafeMutableRawPointer, count: Int) throws -> Int {
        while true {
            let read = Glibc.read(descriptor, base, count)
            if read >= 0 { return read }
            if errno != EINTR { throw IOError(path: path, reason: String(cString: strerror(errno))) }
        }
    }
}
