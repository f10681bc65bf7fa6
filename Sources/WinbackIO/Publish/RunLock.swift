import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The exclusive run lock `<output>/.lock` (jobs/README.md), and the ledger's `<ledger>.lock`: an OS lock (`flock`) that dies with the process, so
/// a killed run never blocks the next night. The holder writes its pid and start time into the file.
public final class RunLock {
    private let descriptor: Int32

    /// Why the lock could not be taken.
    public enum Failure: Error, Sendable {
        /// The lock file cannot be opened.
        case io(IOError)
        /// Another run holds the lock: the message names the file and the holder's pid and start time.
        case held(String)
    }

    /// The lock file, `<output>/.lock` or `<ledger>.lock`.
    public let path: String

    /// Takes the lock or throws ``Failure/held`` naming the holder.
    public convenience init(outputDirectory: String, startedAt: String) throws(Failure) {
        try self.init(path: outputDirectory + "/.lock", guarding: "the lock", startedAt: startedAt)
    }

    /// Takes the lock file `path`, which guards `what` (named in the message when another run holds it:
    /// "the ledger /state/ledger.sqlite").
    public init(path: String, guarding what: String, startedAt: String) throws(Failure) {
        self.path = path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .io(IOError(path: path, reason: String(cString: strerror(errno)))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            close(descriptor)
            let name = what == "the lock" ? "the lock \(path)" : "\(what) (lock \(path))"
            throw .held("another run holds \(name) (\(holder.isEmpty ? "holder unknown" : holder)); exiting")
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
