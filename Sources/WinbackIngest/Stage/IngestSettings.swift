import WinbackAnalytics
import X509

/// What the ingest needs of a config: whom to trust, whose records to accept, and how long a record may be.
public struct IngestSettings: Sendable {
    /// The app whose records are accepted (`app`).
    public var app: AppIdentity
    /// The trusted roots every x5c chain must lead to (`trust.rootCertificates`).
    public var roots: [Certificate]
    /// Accept decoded payloads without a signature (`trust.acceptUnsignedPayloads`).
    public var acceptUnsignedPayloads: Bool
    /// The longest line or `.json` document element held whole, in bytes (`report.maxLineBytes`); a longer
    /// one is one rejection and reading goes on (docs/inputs.md).
    public var maximumLineBytes: Int

    /// Settings trusting `roots` for `app`'s records.
    public init(app: AppIdentity, roots: [Certificate], acceptUnsignedPayloads: Bool, maximumLineBytes: Int) {
        self.app = app
        self.roots = roots
        self.acceptUnsignedPayloads = acceptUnsignedPayloads
        self.maximumLineBytes = maximumLineBytes
    }
}
