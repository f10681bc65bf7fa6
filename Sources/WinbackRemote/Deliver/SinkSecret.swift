import Foundation
import WinbackAppStore
import WinbackJobs

/// A sink's secret (webhook secret, Segment write key, Braze API key; docs/deliveries.md): read from the file an
/// environment variable names (`WINBACK_…_FILE`, for secrets mounted by systemd or Kubernetes), else from the file
/// the config names (relative to the config). One trailing newline is not part of it. Never printed.
enum SinkSecret {
    /// The secret's file and bytes. No file named: 64 naming `key`; unreadable: 74; empty: 64. A file readable by
    /// group or others is a warning.
    static func read(
        _ loaded: LoadedConfig, file: String?, variable: String, environment: [String: String], key: String, warn: (String) -> Void
    ) throws(JobError) -> (path: String, bytes: [UInt8]) {
        guard let path = path(loaded, file: file, variable: variable, environment: environment) else {
            throw .config(file: loaded.path, ConfigError(key: key, message: "expected the secret's file (or \(variable)), found none"))
        }
        var secret = try FileSystem.readAll(path)
        if secret.last == UInt8(ascii: "\n") { secret.removeLast() }
        if secret.last == UInt8(ascii: "\r") { secret.removeLast() }
        guard !secret.isEmpty else {
            throw .config(file: loaded.path, ConfigError(key: key, message: "the secret file \(path) is empty"))
        }
        if let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int, mode & 0o077 != 0 {
            warn("warning: secret \(path) (\(key)) is readable by group or others (mode \(String(mode, radix: 8))); chmod 600 it")
        }
        return (path, secret)
    }

    /// The secret's path: the file `variable` names when set, else `file` relative to the config.
    private static func path(_ loaded: LoadedConfig, file: String?, variable: String, environment: [String: String]) -> String? {
        environment[variable].flatMap { $0.isEmpty ? nil : $0 } ?? file.map(loaded.resolve)
    }
}
