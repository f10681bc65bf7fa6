import Crypto
import Foundation
import SwiftASN1
import WinbackAnalytics
import WinbackAppStore
import WinbackCrypto
import X509

/// A TEST-ONLY certificate hierarchy shaped like Apple's: root → intermediate (OID 1.2.840.113635.100.6.2.1)
/// → leaf (OID 1.2.840.113635.100.6.11.1), with SKID/AKID and critical basicConstraints.
///
/// Keys are derived from a seed (SHA-256 of `seed:label`), so the same seed gives the same keys; the
/// certificate signatures are ECDSA and differ between generations.
public struct TestPKI: Sendable {
    /// A certificate with its private key.
    public struct Issued: Sendable {
        /// The certificate.
        public var certificate: Certificate
        /// Its private key (TEST-ONLY).
        public var key: P256.Signing.PrivateKey
        /// The certificate's DER bytes.
        public var der: [UInt8]
        /// The DER as standard base64 (an `x5c` entry).
        public var base64: String { Base64.encodeStandard(der) }
    }

    /// The self-signed root.
    public var root: Issued
    /// The intermediate the root issued.
    public var intermediate: Issued
    /// The signing leaf the intermediate issued.
    public var leaf: Issued

    /// A verifier that trusts this hierarchy's root and checks payloads against `app`.
    public func verifier(app: AppIdentity = SampleDataGenerator.app) -> SignedPayloadVerifier {
        SignedPayloadVerifier(chains: ChainValidator(roots: [root.certificate]), decoder: PayloadDecoder(app: app))
    }

    /// The x5c header value: `[leaf, intermediate, root]`, standard base64 DER.
    public var x5c: [String] { [leaf.base64, intermediate.base64, root.base64] }

    /// The JWS header Apple's payloads carry: `{"alg":"ES256","x5c":[leaf, intermediate, root]}`.
    public var jwsHeader: JSONValue { JSONText.object([("alg", .string("ES256")), ("x5c", JSONText.array(x5c.map { .string($0) }))]) }

    /// Validity windows (UTC).
    public static let rootValidity = (date(2020, 1, 1), date(2045, 1, 1))
    /// The intermediate's validity (not before, not after).
    public static let intermediateValidity = (date(2020, 1, 1), date(2040, 1, 1))
    /// The leaf's validity (not before, not after).
    public static let leafValidity = (date(2023, 1, 1), date(2030, 1, 1))

    /// Midnight UTC of a date.
    public static func date(_ year: Int, _ month: Int, _ day: Int) -> Date {
        var components = DateComponents()
        components.year = year
        components.month = month
        components.day = day
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        return calendar.date(from: components) ?? Date(timeIntervalSince1970: 0)
    }

    /// A P-256 key derived from `seed` and `label`.
    public static func key(seed: UInt64, label: String) throws -> P256.Signing.PrivateKey {
        var material = Array("winback-test-pki:\(seed):\(label)".utf8)
        while true {
            let digest = Array(SHA256.hash(data: material))
            if let key = try? P256.Signing.PrivateKey(rawRepresentation: digest) { return key }
            material = digest
        }
    }

    /// Builds the hierarchy. `leafHasOID` / `intermediateHasOID` false and custom leaf validity make the
    /// negative variants used for injected bad records.
    public static func make(
        seed: UInt64, rootLabel: String = "root", leafLabel: String = "leaf", leafHasOID: Bool = true,
        intermediateHasOID: Bool = true, leafValidity: (Date, Date) = leafValidity, reuseRoot: Issued? = nil,
        reuseIntermediate: Issued? = nil
    ) throws -> TestPKI {
        let root = try reuseRoot ?? makeRoot(seed: seed, label: rootLabel)
        let intermediate =
            try reuseIntermediate
            ?? issue(
                subject: "Winback TEST ONLY Intermediate", key: try key(seed: seed, label: rootLabel + "-intermediate"),
                issuer: root, validity: intermediateValidity, serial: 2, isCA: true,
                marker: intermediateHasOID ? ChainValidator.intermediateMarkerOID : nil)
        let leaf = try issue(
            subject: "Winback TEST ONLY Store Signing Leaf", key: try key(seed: seed, label: leafLabel), issuer: intermediate,
            validity: leafValidity, serial: 3, isCA: false, marker: leafHasOID ? ChainValidator.leafMarkerOID : nil)
        return TestPKI(root: root, intermediate: intermediate, leaf: leaf)
    }

    static func makeRoot(seed: UInt64, label: String) throws -> Issued {
        let key = try key(seed: seed, label: label)
        let name = try DistinguishedName {
            CommonName("Winback TEST ONLY Root CA (\(label))")
            OrganizationName("Winback sample data - not Apple")
        }
        let publicKey = Certificate.PublicKey(key.publicKey)
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(bytes: [1]), publicKey: publicKey,
            notValidBefore: rootValidity.0, notValidAfter: rootValidity.1, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: publicKey)
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
        return Issued(certificate: certificate, key: key, der: try serialize(certificate))
    }

    static func issue(
        subject: String, key: P256.Signing.PrivateKey, issuer: Issued, validity: (Date, Date), serial: UInt8, isCA: Bool,
        marker: ASN1ObjectIdentifier?
    ) throws -> Issued {
        let name = try DistinguishedName {
            CommonName(subject)
            OrganizationName("Winback sample data - not Apple")
        }
        let publicKey = Certificate.PublicKey(key.publicKey)
        let issuerKeyId = SubjectKeyIdentifier(hash: issuer.certificate.publicKey).keyIdentifier
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(bytes: [serial]), publicKey: publicKey,
            notValidBefore: validity.0, notValidAfter: validity.1, issuer: issuer.certificate.subject, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                if isCA {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                } else {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                }
                SubjectKeyIdentifier(hash: publicKey)
                AuthorityKeyIdentifier(keyIdentifier: issuerKeyId)
                if let marker {
                    Certificate.Extension(oid: marker, critical: false, value: [0x05, 0x00])
                }
            },
            issuerPrivateKey: Certificate.PrivateKey(issuer.key))
        return Issued(certificate: certificate, key: key, der: try serialize(certificate))
    }

    static func serialize(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// PEM text of a certificate.
    public static func pem(_ issued: Issued) throws -> String {
        PEMDocument(type: "CERTIFICATE", derBytes: issued.der).pemString + "\n"
    }
}
