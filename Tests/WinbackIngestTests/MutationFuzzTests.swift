import Foundation
import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackCrypto
import WinbackIngest
import WinbackTestSupport

/// A seeded mutation fuzzer over the line classifier and the payload decoders, its corpus the sample
/// exports. Every mutant must classify without a crash or hang, each found record must be located on the
/// mutant's line, and wherever the fast payload decoder answers, the general path must keep the same value.
///
/// `swift test` runs a bounded number of mutants; run it longer with
/// `WINBACK_FUZZ_ITERATIONS=500000 swift test --filter MutationFuzzTests` (`WINBACK_FUZZ_SEED` picks another run).
@Suite struct MutationFuzzTests {
    /// xorshift64*: a deterministic stream for a seed.

    /// Lines of the sample exports (NDJSON, gzip included, and JSON documents) as the corpus: the first
    /// `linesPerFile` of each NDJSON file (all when `nil`).
    static func corpus(linesPerFile: Int? = 40) throws -> [[UInt8]] {
        let exports = Fixtures.packageRoot.appendingPathComponent("sample-data/exports")
        var lines: [[UInt8]] = []
        let files = try #require(FileManager.default.enumerator(atPath: exports.path)).compactMap { $0 as? String }.sorted()
        for file in files where file.contains("json") {
            var bytes = Array(try Data(contentsOf: exports.appendingPathComponent(file)))
            if file.hasSuffix(".gz") { bytes = try Gunzip.bytes(bytes) }
            if file.contains(".ndjson") || file.contains(".jsonl") {
                lines += bytes.split(separator: 0x0A).prefix(linesPerFile ?? .max).map(Array.init)
            } else {
                lines.append(bytes)
            }
        }
        return lines
    }

    static let app = AppIdentity(bundleId: "com.example.winback", appAppleId: 1_234_567_890, environment: "Production")

    /// The payloads a record carries: a decoded object's text, or a JWS's decoded middle segment.
    static func payloads(_ records: [RawRecord]) -> [([UInt8], PayloadKind)] {
        records.compactMap { record in
            switch record.content {
            case .signed(let jws, let kind):
                let parts = jws.string.split(separator: ".", omittingEmptySubsequences: false)
                guard parts.count == 3, let payload = Base64.decodeURL(String(parts[1])) else { return nil }
                return (payload, kind)
            case .decoded(let value, let kind): return (Array(JSONText.render(value).utf8), kind)
            case .failure: return nil
            }
        }
    }

    /// Every payload of the sample exports that the general path accepts without a warning takes the fast
    /// path, the 12-month commitments billed monthly (a nested `commitmentInfo`) and their renewal infos
    /// included: an app whose customers choose that plan does not fall off it.
    @Test func everyCleanSamplePayloadTakesTheFastPath() async throws {
        let compactor = PayloadCompactor()
        let fast = FastPayloadDecoder(app: Self.app, compactor: compactor)
        let cache = WorkerCache(app: Self.app, compactor: compactor)
        let general = PayloadDecoder(app: Self.app)
        var (clean, commitments, declined) = (0, 0, [String]())
        for line in try Self.corpus(linesPerFile: nil) {
            var records = RecordClassifier.classifyLine(line, source: "sample.ndjson", line: 1)
            if records.isEmpty { records = await DocumentReader.records(of: line, source: "sample.json") }
            for (payload, kind) in Self.payloads(records) where kind != .notification {
                guard let json = try? JSONParser.parse(payload), let (_, warnings) = try? general.decode(json, as: kind), warnings.isEmpty
                else { continue }
                clean += 1
                if String(decoding: payload, as: UTF8.self).contains("\"commitmentInfo\"") { commitments += 1 }
                if payload.withUnsafeBufferPointer({ fast.decode($0, as: kind, cache: cache) }) == nil {
                    declined.append(String(decoding: payload.prefix(300), as: UTF8.self))
                }
            }
        }
        #expect(declined.isEmpty, "\(declined.count) of \(clean) declined, e.g. \(declined.first ?? "")")
        #expect(clean > 2000)
        #expect(commitments > 20)
    }

    @Test func mutantsClassifyAndDecodeWithoutCrashOrDisagreement() async throws {
        let environment = ProcessInfo.processInfo.environment
        let iterations = environment["WINBACK_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 4000
        var mutator = Mutator(state: environment["WINBACK_FUZZ_SEED"].flatMap(UInt64.init) ?? 0x5EED_2026_1125)
        let corpus = try Self.corpus()
        #expect(corpus.count > 50)
        let compactor = PayloadCompactor()
        let fast = FastPayloadDecoder(app: Self.app, compactor: compactor)
        let cache = WorkerCache(app: Self.app, compactor: compactor)
        let general = PayloadDecoder(app: Self.app)
        var (records, answered, disagreements) = (0, 0, [String]())
        for _ in 0..<iterations {
            let seed = corpus[mutator.below(corpus.count)]
            let mutant = mutator.mutate(seed, other: corpus[mutator.below(corpus.count)])
            let found = RecordClassifier.classifyLine(mutant, source: "fuzz.ndjson", line: 7)
            let documentRecords = await DocumentReader.records(of: mutant, source: "fuzz.json")
            records += found.count + documentRecords.count
            #expect(found.allSatisfy { $0.location.line == 7 && $0.location.source == "fuzz.ndjson" })
            #expect(documentRecords.allSatisfy { $0.location.line >= 1 })
            for (payload, kind) in Self.payloads(found) + [(mutant, .transaction), (mutant, .renewalInfo)] {
                guard let quick = payload.withUnsafeBufferPointer({ fast.decode($0, as: kind, cache: cache) }) else { continue }
                answered += 1
                let slow = (try? JSONParser.parse(payload)).flatMap { try? general.decode($0, as: kind) }
                guard let (decoded, warnings) = slow, warnings.isEmpty, compactor.keep(decoded) == quick.kept else {
                    disagreements.append(String(decoding: payload.prefix(300), as: UTF8.self))
                    continue
                }
            }
        }
        #expect(
            disagreements.isEmpty, "\(disagreements.count) payloads the fast decoder kept differently, e.g. \(disagreements.first ?? "")")
        #expect(records > iterations / 2)
        #expect(answered > 0)
    }
}
