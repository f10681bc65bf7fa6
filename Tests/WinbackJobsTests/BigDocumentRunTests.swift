import Foundation
import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackJobs
import WinbackTestSupport

/// Documents larger than `report.maxLineBytes` (docs/inputs.md): with the limit at 16 KiB, four of the six sample
/// documents (22–49 KB) are larger than it while each of their elements (at most 7.4 KB) fits. Their records are read one by one, so the
/// day is the one published with the default limit; the verified store serves the next night every file;
/// shards and a merge publish the same day.
@Suite(.serialized) struct BigDocumentRunTests {
    static func config(_ name: String) throws -> URL {
        try SampleConfig.copy(name) { text in
            text.replacingOccurrences(of: #""maxRejectRate": 0.01,"#, with: #""maxRejectRate": 0.01, "maxLineBytes": 16384,"#)
        }
    }

    /// Published files but the manifest (its config digest differs with the limit).
    static func reports(_ output: URL) throws -> [String: String] {
        try VerifiedStoreTests.published(output).filter { $0.key != "_manifest.json" }
    }

    @Test func documentsOverTheLimitLoseNoRecord() async throws {
        let config = try Self.config("big-documents")
        #expect(try String(contentsOf: config, encoding: .utf8).contains("16384"))
        let shared = try CommandRunner.temporaryDirectory("big-documents-runs")
        // The default limit, in a config beside the other (rejects name inputs relative to the config).
        let referenceConfig = try SampleConfig.copy("big-documents-reference")
        let reference = try await RunGoldenTests.run(
            into: shared.appendingPathComponent("reference"), ledger: shared.appendingPathComponent("a.sqlite"), usesStore: false,
            configPath: referenceConfig.path)
        let cold = try await RunGoldenTests.run(
            into: shared.appendingPathComponent("cold"), ledger: shared.appendingPathComponent("b.sqlite"), configPath: config.path)
        let warm = try await RunGoldenTests.run(
            into: shared.appendingPathComponent("warm"), ledger: shared.appendingPathComponent("c.sqlite"), configPath: config.path)
        #expect(reference.exitCode == 0 && cold.exitCode == 0 && warm.exitCode == 0)
        #expect(try JSONParser.parse(cold.summaryLine)["records"]?["read"] == .integer(3942))
        #expect(try VerifiedStoreTests.filesFromStore(cold) == 0)
        #expect(try VerifiedStoreTests.filesFromStore(warm) == 12, "a warm night takes every file from the store")
        let expected = try Self.reports(shared.appendingPathComponent("reference"))
        for run in ["cold", "warm"] {
            let files = try Self.reports(shared.appendingPathComponent(run))
            #expect(Set(files.keys) == Set(expected.keys))
            for (name, bytes) in expected { #expect(files[name] == bytes, "\(run)/\(name)") }
        }
    }

    @Test func shardsAndMergeReadBigDocuments() async throws {
        let config = try Self.config("big-documents-shards")
        let shared = try CommandRunner.temporaryDirectory("big-documents-shards-runs")
        _ = try await RunGoldenTests.run(
            into: shared.appendingPathComponent("single"), ledger: shared.appendingPathComponent("single.sqlite"), usesStore: false,
            configPath: config.path)
        var partials: [URL] = []
        for index in 0..<2 {
            let partial = shared.appendingPathComponent("partial-\(index)")
            let summary = try await ShardTests.shard(
                try #require(ShardSpec(index: index, count: 2)), partial: partial, ledger: shared.appendingPathComponent("shards.sqlite"),
                usesStore: true, configPath: config.path)
            #expect(summary["exitCode"] == .integer(0))
            partials.append(partial)
        }
        let nonces = SequentialNonce()
        let options = RunOptions(
            configPath: config.path, asOf: RunGoldenTests.asOf, outputOverride: shared.appendingPathComponent("merged").path,
            ledgerOverride: shared.appendingPathComponent("merged.sqlite").path, isQuiet: true, now: { ShardTests.now },
            nonce: { nonces.next() })
        let merged = try await MergeJob.run(options, partialDirectories: partials.map(\.path))
        #expect(merged.exitCode == 0)
        let reference = try VerifiedStoreTests.published(shared.appendingPathComponent("single"))
        let files = try VerifiedStoreTests.published(shared.appendingPathComponent("merged"))
        #expect(Set(files.keys) == Set(reference.keys))
        for (name, bytes) in reference { #expect(files[name] == bytes, "\(name)") }
    }
}
