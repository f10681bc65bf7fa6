import Crypto
import Foundation
import Testing
import WinbackIngest
import WinbackTestSupport

@testable import WinbackJobs

/// Seeded mutants of trusted local state (issue 44): verified-store entries whose outcomes were changed and
/// whose checksum was then made to match (what someone with write access could do), and shard manifests.
/// Each must decode or be refused with an error — never a crash or a hang.
///
/// `WINBACK_FUZZ_ITERATIONS` and `WINBACK_FUZZ_SEED` run it longer or elsewhere, as `MutationFuzzTests`.
@Suite(.serialized) struct StoreEntryFuzzTests {
    static var iterations: Int { ProcessInfo.processInfo.environment["WINBACK_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 1500 }
    static var seed: UInt64 { ProcessInfo.processInfo.environment["WINBACK_FUZZ_SEED"].flatMap(UInt64.init) ?? 0x5EED_2026_1126 }

    /// `entry` with its outcomes replaced by `outcomes` and its key and checksum made to match again.
    static func resealed(outcomes: [UInt8], keyPart: [UInt8]) -> [UInt8] {
        let content = outcomes + keyPart
        return content + Array(SHA256.hash(data: content))
    }

    @Test func mutatedEntriesDecodeOrAreRefused() async throws {
        let shared = try CommandRunner.temporaryDirectory("store-fuzz")
        _ = try await RunGoldenTests.run(into: shared.appendingPathComponent("out"), ledger: shared.appendingPathComponent("a.sqlite"))
        let directory = shared.appendingPathComponent("verified")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".wbs") }.sorted()
        #expect(names.count >= 10)
        // Each entry split into its outcomes (header included) and its key part (end tag, key, key length).
        var corpus: [(outcomes: [UInt8], keyPart: [UInt8], key: String)] = []
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
            let content = Array(bytes.dropLast(32))
            let length = content.suffix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
            let keyStart = content.count - 4 - length
            let key = String(decoding: content[keyStart..<(content.count - 4)], as: UTF8.self)
            corpus.append((Array(content[..<(keyStart - 1)]), Array(content[(keyStart - 1)...]), key))
        }
        var mutator = Mutator(state: Self.seed)
        var (decoded, refused) = (0, 0)
        let compactor = PayloadCompactor()
        for _ in 0..<Self.iterations {
            let seed = corpus[mutator.below(corpus.count)]
            let other = corpus[mutator.below(corpus.count)].outcomes
            let entry = Self.resealed(outcomes: mutator.mutate(seed.outcomes, other: other), keyPart: seed.keyPart)
            do {
                try entry.withUnsafeBytes { bytes in
                    try StoreEntryDecoder.check(bytes, key: seed.key)
                    try StoreEntryDecoder.decode(bytes, source: "fuzz", compactor: compactor) { _ in }
                }
                decoded += 1
            } catch {
                refused += 1
            }
        }
        #expect(decoded + refused == Self.iterations)
        #expect(refused > 0)
    }

    @Test func mutatedPartialManifestsParseOrAreRefused() throws {
        let partial = try CommandRunner.temporaryDirectory("partial-fuzz").appendingPathComponent("p")
        let result = try CommandRunner.run([
            "run", "--config", RunGoldenTests.sampleConfig, "--as-of", RunGoldenTests.asOf, "--shard", "0/2", "--partial", partial.path,
            "--quiet", "--no-store",
        ])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let manifest = [UInt8](try Data(contentsOf: partial.appendingPathComponent(PartialManifest.fileName)))
        var mutator = Mutator(state: Self.seed)
        var (parsed, refused) = (0, 0)
        for _ in 0..<Self.iterations {
            do {
                _ = try PartialManifest.parse(mutator.mutate(manifest, other: manifest))
                parsed += 1
            } catch {
                refused += 1
            }
        }
        #expect(parsed + refused == Self.iterations && refused > 0)
    }
}
