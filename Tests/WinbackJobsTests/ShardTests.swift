import Foundation
import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackJobs
import WinbackRemote
import WinbackServer
import WinbackTestSupport

/// Shards and merge (docs/sharding.md): N shard runs and a merge publish the day one machine publishes, byte for
/// byte but for the offers' random ECDSA signatures; partials that do not make one run are refused (64).
@Suite(.serialized) struct ShardTests {
    static let now = Date(timeIntervalSince1970: 1_795_672_800)

    /// Runs shard `shard` of the sample config into `partial`; the shard's store (if any) lives beside `ledger`.
    @discardableResult
    static func shard(
        _ shard: ShardSpec, partial: URL, ledger: URL, usesStore: Bool = false, configPath: String = RunGoldenTests.sampleConfig,
        asOf: String = RunGoldenTests.asOf
    ) async throws -> JSONValue {
        var options = RunOptions(configPath: configPath, asOf: asOf, ledgerOverride: ledger.path, isQuiet: true, now: { now })
        options.usesStore = usesStore
        options.partialDirectory = partial.path
        return try JSONParser.parse(try await ShardJob.run(options, shard: shard))
    }

    /// Merges `partials` into `output` with a fixed clock and sequential nonces, as ``RunGoldenTests/run`` runs.
    static func merge(_ partials: [URL], into output: URL, ledger: URL) async throws -> RunJob.Outcome {
        let nonces = SequentialNonce()
        let options = RunOptions(
            configPath: RunGoldenTests.sampleConfig, asOf: RunGoldenTests.asOf, outputOverride: output.path, ledgerOverride: ledger.path,
            isQuiet: true, now: { now }, nonce: { nonces.next() })
        return try await MergeJob.run(options, partialDirectories: partials.map(\.path))
    }

    @Test(arguments: 1...7)
    func shardsAndMergePublishTheOneMachineDay(_ count: Int) async throws {
        let shared = try CommandRunner.temporaryDirectory("shards-\(count)")
        _ = try await RunGoldenTests.run(
            into: shared.appendingPathComponent("single"), ledger: shared.appendingPathComponent("single.sqlite"), usesStore: false)
        var partials: [URL] = []
        var read: Int64 = 0
        for index in 0..<count {
            let partial = shared.appendingPathComponent("partial-\(index)")
            // Shards with and without the verified store: the partial is the same.
            let summary = try await Self.shard(
                try #require(ShardSpec(index: index, count: count)), partial: partial,
                ledger: shared.appendingPathComponent("shards.sqlite"),
                usesStore: index % 2 == 0)
            #expect(summary["shard"] == .string("\(index)/\(count)"))
            if case .integer(let records)? = summary["records"]?["read"] { read += records }
            partials.append(partial)
        }
        #expect(read == 3942, "each record is read by exactly one shard")
        #expect(
            !FileManager.default.fileExists(atPath: shared.appendingPathComponent("shards.sqlite").path), "a shard never opens the ledger")
        let merged = try await Self.merge(
            partials.reversed(), into: shared.appendingPathComponent("merged"), ledger: shared.appendingPathComponent("merged.sqlite"))
        #expect(merged.exitCode == 0)
        #expect(merged.summaryLine.hasPrefix(#"{"command":"merge","asOf":"2026-11-19""#))
        let reference = try VerifiedStoreTests.published(shared.appendingPathComponent("single"))
        let files = try VerifiedStoreTests.published(shared.appendingPathComponent("merged"))
        #expect(reference.count > 15 && Set(files.keys) == Set(reference.keys))
        for (name, bytes) in reference { #expect(files[name] == bytes, "\(name)") }
    }

    /// With a ledger holding the day before's selections, the shards measure the campaign-outcome cohorts' members
    /// they own (reading the ledger, never writing it) and the merge adds their measures: `campaign_outcomes`
    /// and every other file as one machine publishes them. Shards that could not read the merge's ledger measured
    /// other cohorts: the merge refuses them (64) rather than publish outcomes without their members.
    @Test func shardsMeasureTheLedgersCohortsAsOneMachine() async throws {
        let shared = try CommandRunner.temporaryDirectory("shards-outcomes")
        let before = shared.appendingPathComponent("before.sqlite")
        _ = try await RunGoldenTests.run(
            into: shared.appendingPathComponent("day-before"), ledger: before, asOf: "2026-11-18", usesStore: false)
        func ledger(_ name: String) throws -> URL {
            let copy = shared.appendingPathComponent(name + ".sqlite")
            try FileManager.default.copyItem(at: before, to: copy)
            return copy
        }
        _ = try await RunGoldenTests.run(into: shared.appendingPathComponent("single"), ledger: try ledger("single"), usesStore: false)
        let shardsLedger = try ledger("shards")
        let shardsLedgerBytes = try Data(contentsOf: shardsLedger)
        var partials: [URL] = []
        for index in 0..<3 {
            partials.append(shared.appendingPathComponent("partial-\(index)"))
            try await Self.shard(try #require(ShardSpec(index: index, count: 3)), partial: partials[index], ledger: shardsLedger)
        }
        #expect(try Data(contentsOf: shardsLedger) == shardsLedgerBytes, "a shard never writes the ledger")
        let merged = try await Self.merge(partials, into: shared.appendingPathComponent("merged"), ledger: try ledger("merged"))
        #expect(merged.exitCode == 0)
        let reference = try VerifiedStoreTests.published(shared.appendingPathComponent("single"))
        let files = try VerifiedStoreTests.published(shared.appendingPathComponent("merged"))
        #expect(try Self.dataRows(shared.appendingPathComponent("single"), "campaign_outcomes.csv.gz") > 0)
        for (name, bytes) in reference { #expect(files[name] == bytes, "\(name)") }

        var blind: [URL] = []
        for index in 0..<3 {
            blind.append(shared.appendingPathComponent("blind-\(index)"))
            try await Self.shard(
                try #require(ShardSpec(index: index, count: 3)), partial: blind[index],
                ledger: shared.appendingPathComponent("absent.sqlite"))
        }
        await #expect {
            _ = try await Self.merge(blind, into: shared.appendingPathComponent("refused"), ledger: try ledger("refused"))
        } throws: { error in
            "\(error)".contains("measured other campaign-outcome cohorts")
        }
    }

    /// Data rows of a published gzip CSV (its header excluded).
    static func dataRows(_ output: URL, _ name: String) throws -> Int {
        let url = output.appendingPathComponent("dt=\(RunGoldenTests.asOf)/" + name)
        let text = try Gunzip.text(Array(try Data(contentsOf: url)))
        return text.split(separator: "\n").count - 1
    }

    /// A shard's store entries are keyed by `i/N`: the next night's shard replays them; a one-machine run
    /// with the same store neither uses nor prunes them.
    @Test func aShardReplaysItsOwnStoreEntriesOnly() async throws {
        let shared = try CommandRunner.temporaryDirectory("shard-store")
        let ledger = shared.appendingPathComponent("ledger.sqlite")
        let shard = try #require(ShardSpec(index: 1, count: 2))
        let first = try await Self.shard(shard, partial: shared.appendingPathComponent("p1"), ledger: ledger, usesStore: true)
        let second = try await Self.shard(shard, partial: shared.appendingPathComponent("p1"), ledger: ledger, usesStore: true)
        #expect(first["filesFromStore"] == .integer(0) && second["filesFromStore"] == .integer(12))
        #expect(second["records"] == first["records"])
        let other = try await Self.shard(
            try #require(ShardSpec(index: 0, count: 2)), partial: shared.appendingPathComponent("p0"), ledger: ledger, usesStore: true)
        #expect(other["filesFromStore"] == .integer(0))
        let single = try await RunGoldenTests.run(into: shared.appendingPathComponent("out"), ledger: ledger)
        #expect(try VerifiedStoreTests.filesFromStore(single) == 0)
        let entries = try FileManager.default.contentsOfDirectory(atPath: shared.appendingPathComponent("verified/shard-1-of-2").path)
        #expect(entries.filter { $0.hasSuffix(".wbs") }.count == 12, "the one-machine run's prune kept the shard's entries")
        // The merge reads the partials, not the store.
        let merged = try await Self.merge(
            [shared.appendingPathComponent("p0"), shared.appendingPathComponent("p1")], into: shared.appendingPathComponent("merged"),
            ledger: shared.appendingPathComponent("merged.sqlite"))
        #expect(merged.exitCode == 0)
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        var name: String
        var partials: [String]
        var message: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "a missing shard", partials: ["a0"], message: "--partials: shard 1/2 missing"),
        Refusal(name: "a shard given twice", partials: ["a0", "a0", "a1"], message: "--partials: shard 0/2 is given twice"),
        Refusal(name: "another N", partials: ["a0", "b1"], message: "is shard 1/3 but"),
        Refusal(name: "another as-of", partials: ["a0", "old1"], message: "is shard 1/2 as of 2026-11-18, not 2026-11-19"),
        Refusal(name: "another config", partials: ["a0", "edited1"], message: "is shard 1/2 of another config (sha256"),
        Refusal(
            name: "not a partial", partials: ["a0", "empty"], message: "has no partial.json (not a partial, or its shard did not finish)"),
    ]

    /// Partials made once for every refusal: `a0`, `a1` (0/2, 1/2), `b1` (1/3), `old1` (1/2 as of the day
    /// before), `edited1` (1/2 of an edited config), `empty` (a directory without a partial).
    static let partials: URL = {
        let directory = (try? CommandRunner.temporaryDirectory("shard-refusals")) ?? URL(fileURLWithPath: "/tmp/shard-refusals")
        let config = RunGoldenTests.sampleConfig
        let edited =
            (try? SampleConfig.copy("shard-edited") {
                $0.replacingOccurrences(of: "\"maxRejectRate\": 0.01", with: "\"maxRejectRate\": 0.02")
            })
            ?? directory
        for (name, shard, asOf, path) in [
            ("a0", "0/2", RunGoldenTests.asOf, config), ("a1", "1/2", RunGoldenTests.asOf, config),
            ("b1", "1/3", RunGoldenTests.asOf, config),
            ("old1", "1/2", "2026-11-18", config), ("edited1", "1/2", RunGoldenTests.asOf, edited.path),
        ] {
            _ = try? CommandRunner.run([
                "run", "--config", path, "--as-of", asOf, "--shard", shard, "--partial", directory.appendingPathComponent(name).path,
                "--quiet",
                "--no-store",
            ])
        }
        try? FileManager.default.createDirectory(at: directory.appendingPathComponent("empty"), withIntermediateDirectories: true)
        return directory
    }()

    @Test(arguments: refusals) func mergeRefusesPartialsThatAreNotOneRun(_ refusal: Refusal) throws {
        let out = try CommandRunner.temporaryDirectory("shard-refusal-out")
        let result = try CommandRunner.run(
            ["merge", "--config", RunGoldenTests.sampleConfig, "--as-of", RunGoldenTests.asOf, "--out", out.path, "--quiet", "--partials"]
                + refusal.partials.map { Self.partials.appendingPathComponent($0).path })
        #expect(result.exitCode == 64, "\(result.stdout)\(result.stderr)")
        #expect(result.firstErrorLine.contains(refusal.message), "\(result.stderr)")
        #expect(result.stdout.contains(#""command":"merge","exitCode":64"#))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("dt=2026-11-19").path))
    }

    /// Runs `winback merge` of the good shard 0 and `second` into `out` (through the command line).
    static func mergeWithShardZero(_ second: URL, out: URL) throws -> CommandRunner.Result {
        try CommandRunner.run(
            [
                "merge", "--config", RunGoldenTests.sampleConfig, "--as-of", RunGoldenTests.asOf, "--out", out.path, "--quiet",
                "--partials", Self.partials.appendingPathComponent("a0").path, second.path,
            ])
    }

    /// A partial's record file changed on disk is refused (74, naming it): its SHA-256 no longer matches
    /// `partial.json`, or its gzip stream no longer reads. Nothing is published.
    @Test(arguments: PartialManifestNames.recordFiles) func aDamagedPartialFileExits74NamingIt(_ name: String) throws {
        let directory = try CommandRunner.temporaryDirectory("shard-damaged")
        let copy = directory.appendingPathComponent("a1")
        try FileManager.default.copyItem(at: Self.partials.appendingPathComponent("a1"), to: copy)
        let file = copy.appendingPathComponent(name)
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 8] ^= 0x01  // the gzip trailer's CRC
        try bytes.write(to: file)
        let result = try Self.mergeWithShardZero(copy, out: directory.appendingPathComponent("out"))
        #expect(result.exitCode == 74, "\(result.stderr)")
        #expect(result.firstErrorLine.contains(file.path) && result.firstErrorLine.contains("unusable partial file"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/dt=2026-11-19").path))
    }

    /// A partial of format version 4 (an older winback's: no renewal outlook) is refused naming the version (64).
    @Test func aPartialOfAnotherFormatVersionIsRefused() throws {
        let directory = try CommandRunner.temporaryDirectory("shard-version")
        let old = directory.appendingPathComponent("a1")
        try FileManager.default.copyItem(at: Self.partials.appendingPathComponent("a1"), to: old)
        let manifest = old.appendingPathComponent("partial.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        try #require(text.contains(#""version":6"#))
        try text.replacingOccurrences(of: #""version":6"#, with: #""version":5"#).write(to: manifest, atomically: true, encoding: .utf8)
        let result = try Self.mergeWithShardZero(old, out: directory.appendingPathComponent("out"))
        #expect(result.exitCode == 64, "\(result.stderr)")
        #expect(result.firstErrorLine.contains("version: expected 6, found 5"), "\(result.stderr)")
    }

    /// Partials that lie about what they hold (issue 44): shard 0's partial relabelled as shard 1, or shard 0's
    /// subscriptions (with their digest) put in shard 1's partial. A subscription may come from one shard only:
    /// 74 naming the partial's file, nothing published.
    @Test(arguments: ["shard 0 relabelled as shard 1", "shard 0's subscriptions in shard 1's partial"])
    func aPartialHoldingAnotherShardsRecordsIsRefused(_ forgery: String) throws {
        let directory = try CommandRunner.temporaryDirectory("shard-forged")
        let forged = directory.appendingPathComponent("a1")
        if forgery.hasSuffix("relabelled as shard 1") {
            try FileManager.default.copyItem(at: Self.partials.appendingPathComponent("a0"), to: forged)
            let manifest = forged.appendingPathComponent("partial.json")
            let text = try String(contentsOf: manifest, encoding: .utf8)
            try #require(text.contains(#""shard":0"#))
            try text.replacingOccurrences(of: #""shard":0"#, with: #""shard":1"#).write(to: manifest, atomically: true, encoding: .utf8)
        } else {
            try FileManager.default.copyItem(at: Self.partials.appendingPathComponent("a1"), to: forged)
            let name = "subscriptions.wbr"
            try FileManager.default.removeItem(at: forged.appendingPathComponent(name))
            try FileManager.default.copyItem(
                at: Self.partials.appendingPathComponent("a0/" + name), to: forged.appendingPathComponent(name))
            let digest = { (url: URL) throws -> String in
                let text = try String(contentsOf: url.appendingPathComponent("partial.json"), encoding: .utf8)
                let start = try #require(text.range(of: "\"\(name)\":{"))
                let end = try #require(text[start.upperBound...].firstIndex(of: "}"))
                return String(text[start.lowerBound...end])
            }
            let manifest = forged.appendingPathComponent("partial.json")
            let text = try String(contentsOf: manifest, encoding: .utf8)
            try text.replacingOccurrences(of: try digest(forged), with: try digest(Self.partials.appendingPathComponent("a0")))
                .write(to: manifest, atomically: true, encoding: .utf8)
        }
        let result = try Self.mergeWithShardZero(forged, out: directory.appendingPathComponent("out"))
        #expect(result.exitCode == 74, "\(forgery): \(result.stderr)")
        #expect(
            result.firstErrorLine.contains(forged.path) && result.firstErrorLine.contains("a subscription belongs to one shard"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/dt=2026-11-19").path))
    }

    /// Shard 0's candidates or rejects put in shard 1's partial with their size, digest and record count
    /// (issue 51): what is read is checked against the shard rule (candidates) and the shard's own counts
    /// (rejects), so the copy is 74 naming the file, nothing published.
    @Test(arguments: [("candidates.wbr", "belongs to shard 0, not shard 1"), ("rejects.wbr", "rejects where partial.json counts")])
    func aRecordFileCopiedFromAnotherShardWithItsDigestIsRefused(_ name: String, _ words: String) throws {
        let directory = try CommandRunner.temporaryDirectory("shard-copied")
        let forged = directory.appendingPathComponent("a1")
        try FileManager.default.copyItem(at: Self.partials.appendingPathComponent("a1"), to: forged)
        try FileManager.default.removeItem(at: forged.appendingPathComponent(name))
        try FileManager.default.copyItem(at: Self.partials.appendingPathComponent("a0/" + name), to: forged.appendingPathComponent(name))
        let entry = { (url: URL) throws -> String in
            let text = try String(contentsOf: url.appendingPathComponent("partial.json"), encoding: .utf8)
            let start = try #require(text.range(of: "\"\(name)\":{"))
            let end = try #require(text[start.upperBound...].firstIndex(of: "}"))
            return String(text[start.lowerBound...end])
        }
        let (own, copied) = (try entry(forged), try entry(Self.partials.appendingPathComponent("a0")))
        try #require(own != copied)
        let manifest = forged.appendingPathComponent("partial.json")
        try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: own, with: copied)
            .write(to: manifest, atomically: true, encoding: .utf8)
        let result = try Self.mergeWithShardZero(forged, out: directory.appendingPathComponent("out"))
        #expect(result.exitCode == 74, "\(name): \(result.stderr)")
        #expect(result.firstErrorLine.contains(forged.path + "/" + name) && result.firstErrorLine.contains(words), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/dt=2026-11-19").path))
    }

    @Test func theTwoGoodPartialsMergeThroughTheCommandLine() throws {
        let out = try CommandRunner.temporaryDirectory("shard-cli-out")
        let result = try CommandRunner.run(
            ["merge", "--config", RunGoldenTests.sampleConfig, "--as-of", RunGoldenTests.asOf, "--out", out.path, "--quiet", "--partials"]
                + ["a1", "a0"].map { Self.partials.appendingPathComponent($0).path })
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("dt=2026-11-19/_SUCCESS").path))
    }

    /// `jobs/run-sharded.sh N` runs the shards one after another, then the merge, on one machine.
    @Test func theOneMachineScriptRunsShardsThenTheMerge() throws {
        let directory = try CommandRunner.temporaryDirectory("run-sharded")
        let config = try SampleConfig.copy("run-sharded-config")
        let result = try CommandRunner.runProgram(
            "/bin/bash",
            [
                Fixtures.packageRoot.appendingPathComponent("jobs/run-sharded.sh").path, "2", "--out",
                directory.appendingPathComponent("out").path,
            ],
            environment: [
                "WINBACK_BIN": CommandRunner.executable.path, "WINBACK_CONFIG": config.path, "WINBACK_AS_OF": RunGoldenTests.asOf,
                "WINBACK_PARTIALS": directory.appendingPathComponent("partials").path,
            ])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""command":"merge","asOf":"2026-11-19""#), "\(result.stdout)")
        #expect(result.stderr.contains(#""shard":"0/2""#) && result.stderr.contains(#""shard":"1/2""#))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/dt=2026-11-19/_SUCCESS").path))
        let usage = try CommandRunner.runProgram(
            "/bin/bash", [Fixtures.packageRoot.appendingPathComponent("jobs/run-sharded.sh").path, "0"])
        #expect(usage.exitCode == 64)
    }

    /// `--shard auto` takes the index from a Kubernetes Indexed Job or an AWS Batch array job.
    @Test(arguments: [("JOB_COMPLETION_INDEX", "1"), ("AWS_BATCH_JOB_ARRAY_INDEX", "0")])
    func shardAutoReadsTheBatchEnginesIndex(_ variable: String, _ index: String) throws {
        let partial = try CommandRunner.temporaryDirectory("shard-auto").appendingPathComponent("p")
        let result = try CommandRunner.run(
            [
                "run", "--config", RunGoldenTests.sampleConfig, "--as-of", RunGoldenTests.asOf, "--shard", "auto", "--shards", "2",
                "--partial",
                partial.path, "--quiet", "--no-store",
            ],
            environment: [variable: index])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""shard":"\#(index)/2""#), "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: partial.appendingPathComponent("partial.json").path))
    }
}

/// The record files of a partial (docs/sharding.md), as tests name them.
enum PartialManifestNames {
    static let recordFiles = ["subscriptions.wbr", "rejects.wbr", "candidates.wbr", "tallies.wbr"]
}
