import Dispatch
import Foundation
import Synchronization
import WinbackJobs

#if canImport(Glibc)
    import Glibc
#endif

/// Appends `winback serve`'s request log (docs/retention-messaging.md): `<ledger's directory>/retention-requests/<UTC date of
/// the request>.ndjson` (`<date>.<instance>.ndjson` with `--instance`, so replicas never share a file), one line
/// per response, a new file each UTC day. Lines are written on a queue of their
/// own, so a slow disk never holds a response; each line is one `write` to a file opened for appending, so
/// two servers sharing the directory never interleave inside a line.
final class RequestLogWriter: Sendable {
    private struct OpenFile {
        var day: String
        var descriptor: Int32
    }

    /// The directory of the day files.
    let directory: String
    /// `.<instance>` of the file names, or empty.
    private let instanceSuffix: String
    private let queue = DispatchQueue(label: "winback.serve.request-log")
    private let file = Mutex<OpenFile?>(nil)
    /// Told about a line that could not be written (with the reason).
    private let onError: @Sendable (String) -> Void

    /// A writer into `retention-requests/` beside the ledger at `ledgerPath`, into files of `instance`'s when given.
    init(ledgerPath: String, instance: String?, onError: @escaping @Sendable (String) -> Void) {
        directory = RetentionRequestLog.directory(ledgerPath: ledgerPath)
        instanceSuffix = instance.map { "." + $0 } ?? ""
        self.onError = onError
    }

    /// Queues `line` (without its newline) for the file of UTC day `day` (`YYYY-MM-DD`).
    func append(_ line: String, day: String) {
        queue.async { self.write(line + "\n", day: day) }
    }

    /// Waits until every queued line is written, then closes the file.
    func close() {
        queue.sync {
            file.withLock { open in
                if let descriptor = open?.descriptor { _ = Glibc.close(descriptor) }
                open = nil
            }
        }
    }

    private func write(_ line: String, day: String) {
        file.withLock { open in
            if open?.day != day {
                if let descriptor = open?.descriptor { _ = Glibc.close(descriptor) }
                open = nil
                try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                let descriptor = Glibc.open(
                    directory + "/" + day + instanceSuffix + ".ndjson", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else {
                    onError("\(directory)/\(day)\(instanceSuffix).ndjson: \(String(cString: strerror(errno)))")
                    return
                }
                open = OpenFile(day: day, descriptor: descriptor)
            }
            guard let descriptor = open?.descriptor else { return }
            let written = line.utf8CString.withUnsafeBufferPointer { buffer in
                Glibc.write(descriptor, buffer.baseAddress, buffer.count - 1)
            }
            if written != line.utf8.count {
                onError("\(directory)/\(day)\(instanceSuffix).ndjson: \(written < 0 ? String(cString: strerror(errno)) : "short write")")
            }
        }
    }
}
