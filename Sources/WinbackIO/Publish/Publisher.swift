import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Atomic publishing of `<output>/dt=<D>/` (jobs/README.md): outputs go to a temporary directory beside it,
/// `_SUCCESS` is written last, then the directory is renamed into place. A crash leaves the previous
/// complete `dt=<D>` or none, never a partial one; leftovers of crashed runs are removed by the next run.
public struct Publisher {
    /// The directory day partitions are published in.
    public let outputDirectory: String
    /// `dt=<D>`.
    public let partition: String

    /// A publisher of `<outputDirectory>/dt=<asOf>`.
    public init(outputDirectory: String, asOf: String) {
        self.outputDirectory = outputDirectory
        self.partition = "dt=\(asOf)"
    }

    /// The final directory.
    public var finalPath: String { outputDirectory + "/" + partition }

    /// Removes temporary directories left by killed runs (call while holding the lock).
    public func removeLeftovers() {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: outputDirectory)) ?? []
        for entry in entries where entry.hasPrefix(".tmp-") || entry.hasPrefix(".old-") {
            try? FileManager.default.removeItem(atPath: outputDirectory + "/" + entry)
        }
    }

    /// Creates a fresh temporary directory for this run.
    public func makeTemporaryDirectory() throws(IOError) -> String {
        let path = outputDirectory + "/.tmp-\(partition)-\(getpid())"
        do {
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw IOError(path: path, reason: "cannot create directory (\(error.localizedDescription))")
        }
        return path
    }

    /// Writes `_SUCCESS` and moves `temporary` into place, replacing a previous `dt=<D>`.
    public func publish(_ temporary: String) throws(IOError) {
        let success = temporary + "/_SUCCESS"
        guard FileManager.default.createFile(atPath: success, contents: Data()) else {
            throw IOError(path: success, reason: "cannot write")
        }
        syncDirectory(temporary)
        let old = outputDirectory + "/.old-\(partition)-\(getpid())"
        if FileManager.default.fileExists(atPath: finalPath) {
            guard rename(finalPath, old) == 0 else { throw IOError(path: finalPath, reason: String(cString: strerror(errno))) }
        }
        guard rename(temporary, finalPath) == 0 else { throw IOError(path: finalPath, reason: String(cString: strerror(errno))) }
        syncDirectory(outputDirectory)
        try? FileManager.default.removeItem(atPath: old)
    }

    private func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
