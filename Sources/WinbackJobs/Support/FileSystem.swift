import Foundation
import WinbackIO

/// Small file helpers at the effect edge; every failure is an ``IOError`` naming the path.
enum FileSystem {
    /// The whole content of `path` (a regular file, or one that reads like it: `/dev/null` is empty).
    static func readAll(_ path: String) throws(JobError) -> [UInt8] {
        guard FileManager.default.fileExists(atPath: path) else { throw JobError.io(IOError(path: path, reason: "no such file")) }
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
    static func resolve(_ path: String, against directory: String) -> String {
        let joined = path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
        return (joined as NSString).standardizingPath
    }
}
