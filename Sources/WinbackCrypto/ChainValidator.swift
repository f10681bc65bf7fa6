import Crypto
import Foundation
import SwiftASN1
import Synchronization
import WinbackAnalytics
@_spi(DisableValidityCheck) import X509

/// Validates x5c chains against the configured roots, once per distinct (`x5c[0]`, `x5c[1]`) pair.
///
/// A nightly export repeats the same chain millions of times and an RFC 5280 validation costs more than
/// ten signature checks, so the result (without the time check, which depends on each record's `signedDate`) is
/// cached; concurrent first sightings of a chain wait for the one validation in flight.
public final class ChainValidator: Sendable {
    /// Apple's leaf marker: App Store receipt signing.
    public static let leafMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]
    /// Apple's intermediate marker: Apple Worldwide Developer Relations.
    public static let intermediateMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]

    private struct ChainKey: Hashable, Sendable {
        var leaf: String
        var intermediate: String
    }

    private let roots: [Certificate]
    private let cache = Mutex<[ChainKey: Task<ChainEvaluation, Never>]>([:])
    private let validationCount = Atomic<Int>(0)
    /// The most chains remembered: a long-running server that anyone can send chains to forgets them all when
    /// one more arrives (a batch job's chains are few and it keeps every one).
    private let maximumCachedChains: Int

    /// A validator trusting `roots`, remembering at most `maximumCachedChains` chains.
    public init(roots: [Certificate], maximumCachedChains: Int = .max) {
        self.roots = roots
        self.maximumCachedChains = maximumCachedChains
    }

    /// How many path validations ran (one per distinct chain).
    public var validations: Int { validationCount.load(ordering: .relaxed) }

    /// The evaluation of the pair, computed on first sight.
    public func evaluate(leaf: String, intermediate: String) async -> ChainEvaluation {
        let key = ChainKey(leaf: leaf, intermediate: intermediate)
        let task = cache.withLock { entries in
            if let task = entries[key] { return task }
            if entries.count >= maximumCachedChains { entries.removeAll() }
            let roots = self.roots
            let counter = self
            let task = Task<ChainEvaluation, Never> {
                counter.validationCount.add(1, ordering: .relaxed)
                return await Self.evaluateUncached(leaf: leaf, intermediate: intermediate, roots: roots)
            }
            entries[key] = task
            return task
        }
        return await task.value
    }

    private static func decodeCertificate(_ text: String, role: String) -> Result<Certificate, RecordFailure> {
        guard let der = Base64.decodeStandard(text) else {
            return .failure(
                RecordFailure(.invalidCertificate, "\(role) certificate: expected strict standard base64, found invalid base64"))
        }
        do {
            return .success(try Certificate(derEncoded: der))
        } catch {
            return .failure(
                RecordFailure(.invalidCertificate, "\(role) certificate: expected DER X.509, found \(der.count) bytes that do not parse"))
        }
    }

    static func evaluateUncached(leaf leafText: String, intermediate intermediateText: String, roots: [Certificate]) async
        -> ChainEvaluation
    {
        var evaluation = ChainEvaluation()
        let leaf: Certificate
        let intermediate: Certificate
        switch decodeCertificate(leafText, role: "x5c[0] (leaf)") {
        case .success(let certificate): leaf = certificate
        case .failure(let failure):
            evaluation.decodeFailure = failure
            return evaluation
        }
        switch decodeCertificate(intermediateText, role: "x5c[1] (intermediate)") {
        case .success(let certificate): intermediate = certificate
        case .failure(let failure):
            evaluation.decodeFailure = failure
            return evaluation
        }
        guard let leafKey = P256.Signing.PublicKey(leaf.publicKey) else {
            evaluation.decodeFailure = RecordFailure(.invalidCertificate, "x5c[0] (leaf) key: expected P-256, found another key type")
            return evaluation
        }
        evaluation.leafKey = leafKey

        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            RFC5280Policy.withValidityCheckDisabled()
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate]))
        let chain: [Certificate]
        switch result {
        case .validCertificate(let validated):
            chain = Array(validated)
        case .couldNotValidate(let failures):
            let reason =
                failures.first.map { String(describing: $0.policyFailureReason) }
                ?? "no path from the leaf through x5c[1] to a configured root"
            evaluation.chainFailure = RecordFailure(.untrustedChain, "chain does not validate to a configured root: \(reason)")
            return evaluation
        }
        guard chain.count == 3, chain[1] == intermediate else {
            evaluation.chainFailure = RecordFailure(
                .untrustedChain, "chain must be leaf → x5c[1] → configured root, found a path of \(chain.count) certificates")
            return evaluation
        }
        for (index, issuer) in chain.enumerated().dropFirst() {
            if let usage = try? issuer.extensions.keyUsage, !usage.keyCertSign {
                let role = index == 1 ? "intermediate" : "root"
                evaluation.chainFailure = RecordFailure(.untrustedChain, "\(role) certificate: keyUsage lacks keyCertSign")
                return evaluation
            }
        }
        evaluation.validityWindows = zip(["leaf", "intermediate", "root"], chain).map { role, certificate in
            ChainEvaluation.ValidityWindow(
                role: role,
                notBeforeSeconds: Int64(certificate.notValidBefore.timeIntervalSince1970.rounded(.down)),
                notAfterSeconds: Int64(certificate.notValidAfter.timeIntervalSince1970.rounded(.down)))
        }
        if leaf.extensions[oid: leafMarkerOID] == nil {
            evaluation.oidFailure = RecordFailure(.missingAppleOID, "leaf certificate lacks Apple extension \(leafMarkerOID)")
        } else if intermediate.extensions[oid: intermediateMarkerOID] == nil {
            evaluation.oidFailure = RecordFailure(
                .missingAppleOID, "intermediate certificate lacks Apple extension \(intermediateMarkerOID)")
        }
        return evaluation
    }
}
