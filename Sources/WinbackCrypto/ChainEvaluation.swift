import Crypto
import WinbackAnalytics

/// What is known about one distinct (`x5c[0]`, `x5c[1]`) pair, independent of any record's `signedDate`:
/// whether the certificates decode, whether the path to a configured root validates, the validity window
/// of every certificate on that path, and whether Apple's marker OIDs are present.
public struct ChainEvaluation: Sendable {
    /// One certificate's validity window in whole epoch seconds, both bounds inclusive.
    public struct ValidityWindow: Sendable {
        /// `root`, `intermediate` or `leaf`.
        public var role: String
        /// Not valid before, epoch seconds.
        public var notBeforeSeconds: Int64
        /// Not valid after, epoch seconds.
        public var notAfterSeconds: Int64
    }

    /// `invalid_certificate` when `x5c[0]`/`x5c[1]` do not decode or the leaf key is not P-256.
    public var decodeFailure: RecordFailure?
    /// `untrusted_chain` when path validation fails.
    public var chainFailure: RecordFailure?
    /// Leaf, intermediate and root windows (root last), when the path validated.
    public var validityWindows: [ValidityWindow] = []
    /// `missing_apple_oid` when a marker extension is absent.
    public var oidFailure: RecordFailure?
    /// The leaf's P-256 key, when it decoded.
    public var leafKey: P256.Signing.PublicKey?
}
