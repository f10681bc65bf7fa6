#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file in chunks with POSIX `read(2)`; closes it when released.
public final class FileByteSource: ByteSource {
    private let descriptor: Int32
    public let path: String

    /// Opens `path` for reading or throws ``IOError`` naming it and the OS reason.
    public init(path: String) throws(IOError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw IOError(path: path, reason: String(cString: strerror(errno))) }
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    public func read(into destination: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = destination.baseAddress, destination.count > 0 else { return 0 }
        while true {
            let count = Glibc.read(descriptor, base, destination.count)
            if count >= 0 { return count }
            if errno != EINTR { throw IOError(path: path, reason: String(cString: strerror(errno))) }
        }
    }
}
