import Foundation
import WinbackCore
import WinbackCrypto
import WinbackIO

/// Loads the In-App Purchase key for signing: `WINBACK_SIGNING_KEY_FILE` (relative to the current
/// directory) or `signing.privateKeyFile` (relative to the config). Refuses to start when it is missing
/// (64), unreadable (74) or not P-256 (64); warns when the file is readable by group or others. The key's
/// bytes never appear in any message.
enum SigningKeyLoader {
    static func load(_ loaded: LoadedConfig, environment: [String: String], warn: (String) -> Void) throws(JobError) -> InAppPurchaseKey {
        guard let settings = loaded.config.signing else {
            throw .config(
                file: loaded.path,
                ConfigError(
                    key: "signing",
                    message: "expected keyId, issuerId and privateKeyFile (required when a campaign signs offers), found none"))
        }
        let path: String
        if let override = environment["WINBACK_SIGNING_KEY_FILE"], !override.isEmpty {
            path = FileSystem.resolve(override, against: FileManager.default.currentDirectoryPath)
        } else if let file = settings.privateKeyFile {
            path = loaded.resolve(file)
        } else {
            throw .config(
                file: loaded.path,
                ConfigError(key: "signing.privateKeyFile", message: "expected a .p8 path (or WINBACK_SIGNING_KEY_FILE), found none"))
        }
        let bytes = try FileSystem.readAll(path)
        if let attributes = try? FileManager.default.attributesOfItem(atPath: path), let mode = attributes[.posixPermissions] as? Int,
            mode & 0o077 != 0
        {
            warn("warning: signing key \(path) is readable by group or others (mode \(String(mode, radix: 8))); chmod 600 it")
        }
        do {
            return try InAppPurchaseKey(pem: String(decoding: bytes, as: UTF8.self), keyId: settings.keyId, issuerId: settings.issuerId)
        } catch {
            throw .config(file: loaded.path, ConfigError(key: "signing.privateKeyFile", message: "\(path): \(error.description)"))
        }
    }
}
