import Foundation
import WinbackIO

/// Small file helpers at the effect edge; every failure is an ``IOError`` naming the path.
package enum FileSystem {
    /// The whole content of the regular file `path`. Anything else is refused naming it: a FIFO would block
    /// the run for ever and `/dev/zero` would read until memory runs out (issue 44).
    package static func readAll(_ path: String) throws(JobError) -> [UInt8] {
        switch FileKind.of(path) {
        case .regular: break
        case .missing: throw JobError.io(IOError(path: path, reason: "no such file"))
        case .directory: throw JobError.io(IOError(path: path, reason: "a directory, not a file"))
        case .other(let kind): throw JobError.io(IOError(path: path, reason: "not a regular file (\(kind))"))
        case .unresolvable(let reason):
            throw JobError.io(IOError(path: path, reason: "a symbolic link that cannot be followed (\(reason))"))
        }
        guard FileManager.default.isReadableFile(atPath: path), let handle = FileHandle(forReadingAtPath: path) else {
            throw JobError.io(IOError(path: path, reason: "not readable (permission denied)"))
        }
        defer { try? handle.close() }
        do {
            return Array(try handle.readToEnd() ?? Data())
        } catch {
            throw JobError.io(IOError(path: path, reason: "read failed (\(error.localizedDescription))"))
        }
    }

    /// `path` resolved against `directory` unless absolute; `.` segments removed.
    package static func resolve(_ path: String, against directory: String) -> String {
        let joined = path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
        return (joined as NSString).standardizingPath
    }

    /// Writes `bytes` to `path` atomically: into `.<name>.<pid>.tmp` beside it, flushed to disk, then renamed
    /// over `path` (and the directory flushed), so a reader sees the old file or the whole new one, never a part.
    package static func writeAtomically(_ bytes: [UInt8], to path: String) throws(JobError) {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = directory + "/." + (path as NSString).lastPathComponent + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .io(IOError(path: temporary, reason: String(cString: strerror(errno)))) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                unlink(temporary)
                throw .io(IOError(path: temporary, reason: "write failed (\(reason))"))
            }
            written += count
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .io(IOError(path: path, reason: "cannot move the finished file into place (\(reason))"))
        }
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }
}
