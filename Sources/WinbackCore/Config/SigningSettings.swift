/// `signing` in the config: the App Store Connect In-App Purchase key.
public struct SigningSettings: Sendable, Equatable {
    /// The key's 10-character id.
    public var keyId: String
    /// The issuer id (App Store Connect → Keys).
    public var issuerId: String
    /// Path of the PKCS#8 `.p8` file, relative to the config; `WINBACK_SIGNING_KEY_FILE` overrides it.
    public var privateKeyFile: String?

    /// Settings from the config's `signing` object.
    public init(keyId: String, issuerId: String, privateKeyFile: String?) {
        self.keyId = keyId
        self.issuerId = issuerId
        self.privateKeyFile = privateKeyFile
    }
}
