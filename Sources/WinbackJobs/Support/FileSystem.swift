import Foundation
import WinbackIO

/// Small file helpers at the effect edge; every failure is an ``IOError`` naming the path.
enum FileSystem {
    static func readAll(_ path: String) throws(JobError) -> [UInt8] {
        guard FileManager.default.isReadableFile(atPath: path), let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "not readable" : "no such file"
            throw JobError.io(IOError(path: path, reason: reason))
        }
        return Array(data)
    }

    /// `path` resolved against `directory` unless absolute; `.` segments removed.
    static func resolve(_ path: String, against directory: String) -> String {
        let joined = path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
        return (joined as NSString).standardizingPath
    }
}
