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

    public func read(into buffer: inout [UInt8], maximumCount: Int) throws -> Int {
        let start = buffer.count
        buffer.reserveCapacity(start + maximumCount)
        var appended = 0
        buffer.append(contentsOf: repeatElement(0, count: maximumCount))
        let count = buffer.withUnsafeMutableBytes { raw -> Int in
            while true {
                let result = Glibc.read(descriptor, raw.baseAddress! + start, maximumCount)
                if result < 0 && errno == EINTR { continue }
                return result
            }
        }
        if count < 0 {
            buffer.removeLast(maximumCount)
            throw IOError(path: path, reason: String(cString: strerror(errno)))
        }
        appended = count
        buffer.removeLast(maximumCount - appended)
        return appended
    }
}
