import Testing
import WinbackAnalytics
import WinbackCrypto
import WinbackIngest
import WinbackTestSupport

/// The worker's fast decoder and cache (``RecordProcessor/verify(_:as:cache:)``) against Apple's vectors:
/// the same outcome as the general path, whichever decoder answers.
@Suite struct FastPathConformanceTests {
    static let cases: [ConformanceVectors.Case] = (try? ConformanceVectors().negativeCases) ?? []

    /// Which decoder answered, and the kept form with its warnings or the failure's code and message, of
    /// `jws` verified through a worker cache (its fast decoder first: `fast`) or the general way.
    static func kept(
        _ jws: String, as kind: PayloadKind, by verifier: SignedPayloadVerifier, fast: Bool, cache: WorkerCache? = nil
    ) async -> (path: String, outcome: String) {
        let compactor = PayloadCompactor()
        do {
            guard fast else {
                let (payload, warnings) = try await verifier.verify(RecordText(jws), as: kind)
                return ("general", "\(compactor.keep(payload)) \(warnings)")
            }
            let processor = RecordProcessor(verifier: verifier, acceptUnsignedPayloads: false, compactor: compactor)
            let verified = try await processor.verify(
                RecordText(jws), as: kind, cache: cache ?? WorkerCache(app: verifier.decoder.app, compactor: compactor))
            return (verified.model == nil ? "fast" : "general", "\(verified.kept) \(verified.warnings)")
        } catch {
            return ("rejected", "\(error.code) \(error.message)")
        }
    }

    /// The fast decoder changes nothing about a negative case's outcome.
    @Test(arguments: cases)
    func negativeCaseGivesTheSameOutcomeThroughTheFastPath(_ vector: ConformanceVectors.Case) async throws {
        let verifier = try ConformanceVectors().verifier(rootBase64: vector.rootBase64)
        let general = await Self.kept(vector.jws, as: .transaction, by: verifier, fast: false)
        let fast = await Self.kept(vector.jws, as: .transaction, by: verifier, fast: true)
        #expect(fast.outcome == general.outcome)
    }

    /// A worker's cache (its scratch, its tables in front of the compactor) changes nothing about the outcome:
    /// a header met first through the shared cache, then through the worker's copy, and one a worker meets
    /// first, give the outcome of a verifier with a fresh cache each time.
    @Test(arguments: cases)
    func negativeCaseGivesTheSameOutcomeThroughAWorkerCache(_ vector: ConformanceVectors.Case) async throws {
        let vectors = try ConformanceVectors()
        let plain = await Self.kept(vector.jws, as: .transaction, by: try vectors.verifier(rootBase64: vector.rootBase64), fast: true)
        let verifier = try vectors.verifier(rootBase64: vector.rootBase64)
        let cache = WorkerCache(app: verifier.decoder.app, compactor: PayloadCompactor())
        let first = await Self.kept(vector.jws, as: .transaction, by: verifier, fast: true, cache: cache)
        let again = await Self.kept(vector.jws, as: .transaction, by: verifier, fast: true, cache: cache)
        let other = await Self.kept(
            vector.jws, as: .transaction, by: verifier, fast: true,
            cache: WorkerCache(app: verifier.decoder.app, compactor: PayloadCompactor()))
        #expect(first.outcome == plain.outcome)
        #expect(again.outcome == plain.outcome)
        #expect(other.outcome == plain.outcome)
    }

    @Test(arguments: [("signed_transaction", PayloadKind.transaction), ("signed_renewal_info", .renewalInfo)])
    func appleVectorsTakeTheFastPathToTheSameKeptForm(_ key: String, _ kind: PayloadKind) async throws {
        let vectors = try ConformanceVectors()
        let verifier = try vectors.verifier()
        let general = await Self.kept(vectors.string(key), as: kind, by: verifier, fast: false)
        let fast = await Self.kept(vectors.string(key), as: kind, by: verifier, fast: true)
        #expect(general.path == "general")
        #expect(fast.path == "fast")
        #expect(fast.outcome == general.outcome)
    }
}
