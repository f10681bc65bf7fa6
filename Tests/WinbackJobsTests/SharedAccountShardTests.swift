import Foundation
import Testing
import WinbackAnalytics
import WinbackIngest
import WinbackJobs
import WinbackSampleData
import WinbackTestSupport

/// Accounts whose subscriptions fall in several shards (docs/sharding.md): a shard knows only its own subscriptions of
/// an account, so it hands the merge each qualifying subscription as a candidate and the merge chooses one per
/// account over every shard's. On a dataset where a third of the customers with a token have several
/// subscriptions, N shards and the merge publish the one-machine day for N = 1…7.
@Suite(.serialized) struct SharedAccountShardTests {
    static let asOf = "2026-11-19"

    /// A sample of 400 subscriptions, 30 % of them a customer's second (or third) one, and its config; made once,
    /// by a task every test awaits (blocking a thread of the cooperative pool to wait for it could starve the pool).
    static let dataset = Task<URL?, Never> {
        guard let directory = try? CommandRunner.temporaryDirectory("shared-accounts") else { return nil }
        _ = try? await SampleDataJob.run(outputDirectory: directory.path, subscriptions: 400, seed: 21, sharedAccountShare: 0.3)
        return directory
    }

    static func options(_ config: URL, output: URL, ledger: URL) -> RunOptions {
        let nonces = SequentialNonce()
        var options = RunOptions(
            configPath: config.path, asOf: asOf, outputOverride: output.path, ledgerOverride: ledger.path, isQuiet: true,
            now: { ShardTests.now }, nonce: { nonces.next() })
        options.usesStore = false
        return options
    }

    /// The account keys whose subscriptions (in `subscriptions.csv.gz` of `output`) fall in more than one of `count` shards.
    static func accountsAcrossShards(_ output: URL, count: Int) throws -> Set<String> {
        let text = try Gunzip.text(Array(try Data(contentsOf: output.appendingPathComponent("dt=\(asOf)/subscriptions.csv.gz"))))
        var shards: [String: Set<Int>] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count > 1, !fields[1].isEmpty else { continue }
            shards[String(fields[1]), default: []].insert(ShardRule.shard(ofOwner: Array(fields[0].utf8), count: count))
        }
        return Set(shards.filter { $0.value.count > 1 }.keys)
    }

    /// The account keys of `eligible_accounts.csv.gz` of `output`.
    static func eligibleAccounts(_ output: URL) throws -> Set<String> {
        let text = try Gunzip.text(Array(try Data(contentsOf: output.appendingPathComponent("dt=\(asOf)/eligible_accounts.csv.gz"))))
        return Set(text.split(separator: "\n").dropFirst().compactMap { $0.split(separator: ",").dropFirst().first.map(String.init) })
    }

    @Test(arguments: 1...7) func accountsAcrossShardsAreCombinedAsOneMachine(_ count: Int) async throws {
        let config = try #require(await Self.dataset.value).appendingPathComponent("winback.json")
        let shared = try CommandRunner.temporaryDirectory("shared-accounts-\(count)")
        let single = shared.appendingPathComponent("single")
        _ = try await RunJob.run(Self.options(config, output: single, ledger: shared.appendingPathComponent("single.sqlite")))
        if count > 1 {
            let across = try Self.accountsAcrossShards(single, count: count)
            #expect(!across.intersection(try Self.eligibleAccounts(single)).isEmpty, "an eligible account has subscriptions in two shards")
        }
        try await Self.expectShardsAndMergePublish(single, config: config, count: count, work: shared)
    }

    /// Runs `count` shards of `config` and their merge in `work` and expects the merged day to be the bytes of
    /// the one-machine day published under `single`.
    static func expectShardsAndMergePublish(_ single: URL, config: URL, count: Int, work: URL) async throws {
        var partials: [URL] = []
        for index in 0..<count {
            var options = options(config, output: work, ledger: work.appendingPathComponent("shards.sqlite"))
            options.partialDirectory = work.appendingPathComponent("partial-\(index)").path
            _ = try await ShardJob.run(options, shard: try #require(ShardSpec(index: index, count: count)))
            partials.append(work.appendingPathComponent("partial-\(index)"))
        }
        let merged = work.appendingPathComponent("merged")
        let outcome = try await MergeJob.run(
            options(config, output: merged, ledger: work.appendingPathComponent("merged.sqlite")), partialDirectories: partials.map(\.path))
        #expect(outcome.exitCode == 0)
        let reference = try VerifiedStoreTests.published(single, asOf: asOf)
        let files = try VerifiedStoreTests.published(merged, asOf: asOf)
        #expect(reference.count > 15 && Set(files.keys) == Set(reference.keys))
        for (name, bytes) in reference {
            let isSame = files[name] == bytes
            #expect(isSame, "\(name) differs from one machine's (N = \(count))")
        }
    }
}
