import Foundation
import WinbackIO

#if canImport(Glibc)
    import Glibc
#endif

/// The exclusive run lock `<output>/.lock` (SPEC §9): an OS lock (`flock`) that dies with the process, so
/// a killed run never blocks the next night. The holder writes its pid and start time into the file.
public final class RunLock {
    private let descriptor: Int32
    public let path: String

    /// Takes the lock or throws ``JobError/locked`` naming the holder (exit 75).
    public init(outputDirectory: String, startedAt: String) throws(JobError) {
        path = outputDirectory + "/.lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .io(IOError(path: path, reason: String(cString: strerror(errno)))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            close(descriptor)
            throw .locked("another run holds the lock \(path) (\(holder.isEmpty ? "holder unknown" : holder)); exiting")
        }
        self.descriptor = descriptor
        let text = "pid \(getpid()) started \(startedAt)\n"
        _ = ftruncate(descriptor, 0)
        _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
