import Foundation
import WinbackAppStore
import WinbackCore
import WinbackIO
import WinbackJobs

/// What every `winback sync` mode does before and while it writes: read the `api` block, create and lock
/// its directory, and write `{"<member>": "<JWS>"}` lines.
enum SyncSetup {
    /// The config's `api` block, or 64 naming it and the `command` that needs it.
    static func settings(_ loaded: LoadedConfig, command: String = "winback sync") throws(JobError) -> APISettings {
        guard let settings = loaded.config.api else {
            throw .config(
                file: loaded.path,
                ConfigError(
                    key: "api", message: "expected keyId, issuerId, privateKeyFile and directory (required by \(command)), found none"))
        }
        return settings
    }

    /// Creates `directory` (and its parents).
    static func createDirectory(_ directory: String) throws(JobError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .io(IOError(path: directory, reason: "cannot create directory (\(error.localizedDescription))"))
        }
    }

    /// Creates `directory` and takes its lock (`<directory>/.lock`): 75 when another sync holds it.
    static func lock(_ directory: String, now: Date) throws(JobError) -> RunLock {
        try createDirectory(directory)
        do {
            return try RunLock(
                outputDirectory: directory, startedAt: InstantFormat.iso8601(milliseconds: Int64(now.timeIntervalSince1970 * 1000)))
        } catch {
            throw JobError(error)
        }
    }

    /// Gzip NDJSON of `{"<member>":"<value>"}` lines, one per value (an empty file for none).
    static func lines(member: String, _ values: [String], path: String) throws(JobError) -> [UInt8] {
        var text = ""
        for value in values {
            text += JSONText.render(JSONText.object([member: .string(value)]))
            text += "\n"
        }
        do {
            return try GzipWriter.compress(Array(text.utf8))
        } catch {
            throw .io(IOError(path: path, reason: "cannot compress (\(error))"))
        }
    }
}
