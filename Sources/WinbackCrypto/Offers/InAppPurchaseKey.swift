import Crypto

/// The App Store Connect In-App Purchase key that signs offers: a PKCS#8 PEM (`.p8`) P-256 key.
/// Its bytes never appear in output or logs (`description` shows only the key id).
public struct InAppPurchaseKey: Sendable, CustomStringConvertible {
    /// The P-256 private key (never printed).
    public let privateKey: P256.Signing.PrivateKey
    /// The key's id (`kid`).
    public let keyId: String
    /// The issuer id (`iss`).
    public let issuerId: String

    /// Why a key cannot be used.
    public enum LoadError: Error, Sendable, Equatable, CustomStringConvertible {
        case notPEM
        case notP256

        /// What is wrong with the key file, for the error message.
        public var description: String {
            switch self {
            case .notPEM: "expected a PKCS#8 PEM private key ('-----BEGIN PRIVATE KEY-----'), found something else"
            case .notP256: "expected an EC P-256 private key, found another key type or invalid key data"
            }
        }
    }

    /// A key with its ids (`kid` and `iss` of the offers it signs).
    public init(privateKey: P256.Signing.PrivateKey, keyId: String, issuerId: String) {
        self.privateKey = privateKey
        self.keyId = keyId
        self.issuerId = issuerId
    }

    /// Parses the `.p8` text.
    public init(pem: String, keyId: String, issuerId: String) throws(LoadError) {
        guard pem.contains("-----BEGIN") else { throw .notPEM }
        do {
            privateKey = try P256.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw .notP256
        }
        self.keyId = keyId
        self.issuerId = issuerId
    }

    /// The key id only: the key's bytes never appear in output.
    public var description: String { "InAppPurchaseKey(keyId: \(keyId))" }
}
