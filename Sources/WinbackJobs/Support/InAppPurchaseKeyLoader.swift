import Foundation
import WinbackAppStore
import WinbackCore
import WinbackCrypto
import WinbackIO

/// Loads an App Store Connect In-App Purchase key: the one that signs offers (`signing`, overridden by
/// `WINBACK_SIGNING_KEY_FILE`) or the one `winback sync` authenticates with (`api`, overridden by
/// `WINBACK_API_KEY_FILE`); both may be the same key. An override is relative to the current directory, the
/// config's path to the config. Refuses to start when the key is missing (64), unreadable (74) or not P-256
/// (64); warns when the file is readable by group or others. The key's bytes never appear in any message.
package enum InAppPurchaseKeyLoader {
    /// The offer-signing key of `signing`.
    package static func signingKey(_ loaded: LoadedConfig, environment: [String: String], warn: (String) -> Void) throws(JobError)
        -> InAppPurchaseKey
    {
        guard let settings = loaded.config.signing else {
            throw .config(
                file: loaded.path,
                ConfigError(
                    key: "signing",
                    message: "expected keyId, issuerId and privateKeyFile (required when a campaign signs offers), found none"))
        }
        return try load(
            loaded, section: "signing", keyId: settings.keyId, issuerId: settings.issuerId, file: settings.privateKeyFile,
            override: environment["WINBACK_SIGNING_KEY_FILE"], overrideName: "WINBACK_SIGNING_KEY_FILE", warn: warn)
    }

    /// The App Store Server API key of `api` (the caller checked that the config has `api`). Without
    /// `api.privateKeyFile` or `WINBACK_API_KEY_FILE`, an `api.keyId` equal to `signing.keyId` names the
    /// signing key, read where the signing key is.
    package static func apiKey(_ loaded: LoadedConfig, settings: APISettings, environment: [String: String], warn: (String) -> Void)
        throws(JobError) -> InAppPurchaseKey
    {
        let override = environment["WINBACK_API_KEY_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        if settings.privateKeyFile == nil, override == nil, let signing = loaded.config.signing, signing.keyId == settings.keyId {
            return try load(
                loaded, section: "signing", keyId: settings.keyId, issuerId: settings.issuerId, file: signing.privateKeyFile,
                override: environment["WINBACK_SIGNING_KEY_FILE"], overrideName: "WINBACK_SIGNING_KEY_FILE", warn: warn)
        }
        return try load(
            loaded, section: "api", keyId: settings.keyId, issuerId: settings.issuerId, file: settings.privateKeyFile,
            override: override, overrideName: "WINBACK_API_KEY_FILE", warn: warn)
    }

    private static func load(
        _ loaded: LoadedConfig, section: String, keyId: String, issuerId: String, file: String?, override: String?, overrideName: String,
        warn: (String) -> Void
    ) throws(JobError) -> InAppPurchaseKey {
        let path: String
        if let override, !override.isEmpty {
            path = FileSystem.resolve(override, against: FileManager.default.currentDirectoryPath)
        } else if let file {
            path = loaded.resolve(file)
        } else {
            throw .config(
                file: loaded.path,
                ConfigError(key: "\(section).privateKeyFile", message: "expected a .p8 path (or \(overrideName)), found none"))
        }
        let bytes = try FileSystem.readAll(path)
        if let attributes = try? FileManager.default.attributesOfItem(atPath: path), let mode = attributes[.posixPermissions] as? Int,
            mode & 0o077 != 0
        {
            warn("warning: \(section) key \(path) is readable by group or others (mode \(String(mode, radix: 8))); chmod 600 it")
        }
        do {
            return try InAppPurchaseKey(pem: String(decoding: bytes, as: UTF8.self), keyId: keyId, issuerId: issuerId)
        } catch {
            throw .config(file: loaded.path, ConfigError(key: "\(section).privateKeyFile", message: "\(path): \(error.description)"))
        }
    }
}
