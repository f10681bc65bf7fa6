import SwiftASN1
import X509

/// The configured root certificates that every x5c chain must lead to.
public struct TrustedRoots: Sendable {
    /// The certificates the file held.
    public var certificates: [Certificate]

    /// A set of trusted roots.
    public init(certificates: [Certificate]) {
        self.certificates = certificates
    }

    /// Why a root certificate file cannot be used.
    public struct LoadError: Error, Sendable, CustomStringConvertible {
        /// What the file held instead of certificates.
        public var description: String
    }

    /// Parses one root file's bytes: DER, or PEM holding one or more `CERTIFICATE` blocks (all trusted).
    public static func parse(_ bytes: [UInt8]) throws(LoadError) -> [Certificate] {
        let text = String(decoding: bytes, as: UTF8.self)
        if text.contains("-----BEGIN") {
            let documents: [PEMDocument]
            do {
                documents = try PEMDocument.parseMultiple(pemString: text)
            } catch {
                throw LoadError(description: "expected PEM certificates, found unparsable PEM (\(error))")
            }
            let certificates = documents.filter { $0.discriminator == "CERTIFICATE" }
            guard !certificates.isEmpty else {
                throw LoadError(description: "expected a PEM 'CERTIFICATE' block, found none")
            }
            var parsed: [Certificate] = []
            for document in certificates {
                do {
                    parsed.append(try Certificate(derEncoded: document.derBytes))
                } catch {
                    throw LoadError(description: "expected an X.509 certificate, found invalid DER in PEM (\(error))")
                }
            }
            return parsed
        }
        do {
            return [try Certificate(derEncoded: bytes)]
        } catch {
            throw LoadError(description: "expected a DER or PEM X.509 certificate, found \(bytes.count) bytes that are neither")
        }
    }
}
