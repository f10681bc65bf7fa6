import Foundation
import Testing
import WinbackAppStore
import WinbackJobs
import WinbackServer
import WinbackTestSupport

/// The verified store (docs/verified-store.md): a run reading unchanged files from it publishes exactly what a run
/// verifying them publishes; a changed trust root or app identity, or an entry damaged on disk, is never used.
@Suite(.serialized) struct VerifiedStoreTests {
    /// Every published file of `dt=<D>` in `output`, by name, byte for byte but for the offers' ECDSA
    /// signatures (randomised) and the manifest's sizes and digests that follow from them.
    static func published(_ output: URL, asOf: String = RunGoldenTests.asOf) throws -> [String: String] {
        let day = output.appendingPathComponent("dt=\(asOf)")
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: day.path) {
            let url = day.appendingPathComponent(name)
            files[name] =
                ["offers.ndjson.gz", "_manifest.json"].contains(name)
                ? try RunGoldenTests.comparable(url) : try Data(contentsOf: url).base64EncodedString()
        }
        return files
    }

    static func filesFromStore(_ outcome: RunJob.Outcome) throws -> Int64? {
        if case .integer(let count)? = try JSONParser.parse(outcome.summaryLine)["filesFromStore"] { return count }
        return nil
    }

    static func entries(_ shared: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: shared.appendingPathComponent("verified").path).filter { $0.hasSuffix(".wbs") }
            .sorted()
    }

    @Test func replayedFilesGiveByteIdenticalOutputs() async throws {
        let shared = try CommandRunner.temporaryDirectory("store")
        let cold = try await RunGoldenTests.run(
            into: shared.appendingPathComponent("cold"), ledger: shared.appendingPathComponent("a.sqlite"))
        let inputs = try Self.entries(shared).count
        #expect(try Self.filesFromStore(cold) == 0 && inputs >= 10)
        let warm = try await RunGoldenTests.run(
            into: shared.appendingPathComponent("warm"), ledger: shared.appendingPathComponent("b.sqlite"))
        #expect(try Self.filesFromStore(warm) == Int64(inputs))
        let none = try await RunGoldenTests.run(
            into: shared.appendingPathComponent("none"), ledger: shared.appendingPathComponent("c.sqlite"), usesStore: false)
        #expect(try Self.filesFromStore(none) == 0)
        let reference = try Self.published(shared.appendingPathComponent("cold"))
        #expect(reference.count > 10)
        for other in ["warm", "none"] {
            let files = try Self.published(shared.appendingPathComponent(other))
            #expect(Set(files.keys) == Set(reference.keys))
            for (name, bytes) in reference { #expect(files[name] == bytes, "\(other)/\(name)") }
        }
    }

    @Test(arguments: ["app", "root"])
    func aChangedTrustRootOrAppIdentityUsesNoEntry(_ change: String) async throws {
        let shared = try CommandRunner.temporaryDirectory("store-digest-\(change)")
        // One config file (entries are keyed by paths relative to it), edited between the runs.
        let config = try SampleConfig.copy("store-digest-config-\(change)")
        let warmUp = try await RunGoldenTests.run(
            into: shared.appendingPathComponent("one"), ledger: shared.appendingPathComponent("a.sqlite"), configPath: config.path)
        let control = try await RunGoldenTests.run(
            into: shared.appendingPathComponent("two"), ledger: shared.appendingPathComponent("b.sqlite"), configPath: config.path)
        #expect(try Self.filesFromStore(warmUp) == 0 && Self.filesFromStore(control) ?? 0 > 0)
        let before = try Self.entries(shared)
        let root = Fixtures.packageRoot.appendingPathComponent("sample-data/certs/TEST-ONLY-root.pem").path
        let (from, to) =
            change == "app"
            ? ("\"appAppleId\": 1234567890", "\"appAppleId\": 1234567891") : ("[\"\(root)\"]", "[\"\(root)\", \"\(root)\"]")
        let text = try String(contentsOf: config, encoding: .utf8)
        try #require(text.contains(from))
        try text.replacingOccurrences(of: from, with: to).write(to: config, atomically: true, encoding: .utf8)
        let changed = try await RunGoldenTests.run(
            into: shared.appendingPathComponent("three"), ledger: shared.appendingPathComponent("c.sqlite"), configPath: config.path)
        #expect(try Self.filesFromStore(changed) == 0)
        // The successful run dropped the entries of the other verifier digest.
        #expect(Set(try Self.entries(shared)).isDisjoint(with: before))
    }

    /// Entries of files the inputs no longer match go at the end of the next successful run; the others stay.
    @Test func entriesOfFilesNoLongerReadArePruned() async throws {
        let shared = try CommandRunner.temporaryDirectory("store-prune")
        // One config file (entries are keyed by paths relative to it), edited between the runs.
        let config = try SampleConfig.copy("store-prune-config")
        _ = try await RunGoldenTests.run(
            into: shared.appendingPathComponent("all"), ledger: shared.appendingPathComponent("a.sqlite"), configPath: config.path)
        let before = try Self.entries(shared)
        let pattern = #""\#(Fixtures.packageRoot.appendingPathComponent("sample-data").path)/exports/**/*.json", "#
        let text = try String(contentsOf: config, encoding: .utf8)
        try #require(text.contains(pattern))
        try text.replacingOccurrences(of: pattern, with: "").write(to: config, atomically: true, encoding: .utf8)
        let outcome = try await RunGoldenTests.run(
            into: shared.appendingPathComponent("fewer"), ledger: shared.appendingPathComponent("b.sqlite"), configPath: config.path)
        let after = try Self.entries(shared)
        #expect(try Self.filesFromStore(outcome) == Int64(after.count))
        #expect(after.count < before.count && Set(after).isSubset(of: before))
    }

    @Test(arguments: ["flip", "truncate", "another file's entry"])
    func aDamagedOrMisplacedEntryIsNeverUsed(_ damage: String) async throws {
        let shared = try CommandRunner.temporaryDirectory("store-damage")
        _ = try await RunGoldenTests.run(into: shared.appendingPathComponent("cold"), ledger: shared.appendingPathComponent("a.sqlite"))
        let entries = try Self.entries(shared)
        let largest = try #require(
            entries.max { a, b in
                let size = { (name: String) in
                    (try? FileManager.default.attributesOfItem(atPath: shared.appendingPathComponent("verified/" + name).path)[.size]
                        as? Int) ?? 0
                }
                return size(a) < size(b)
            })
        let path = shared.appendingPathComponent("verified/" + largest)
        var bytes = try Data(contentsOf: path)
        switch damage {
        case "flip": bytes[bytes.count / 2] ^= 0x01
        case "truncate": bytes = bytes.prefix(bytes.count / 2)
        default:
            // Another file's entry, intact, under this file's name: its key says whose it is.
            let other = try #require(entries.first { $0 != largest })
            bytes = try Data(contentsOf: shared.appendingPathComponent("verified/" + other))
        }
        try bytes.write(to: path)
        let warm = try await RunGoldenTests.run(
            into: shared.appendingPathComponent("warm"), ledger: shared.appendingPathComponent("b.sqlite"))
        #expect(try Self.filesFromStore(warm) == Int64(entries.count - 1))
        let reference = try Self.published(shared.appendingPathComponent("cold"))
        let files = try Self.published(shared.appendingPathComponent("warm"))
        for (name, bytes) in reference { #expect(files[name] == bytes, "\(name)") }
        // The file was verified again and its entry written anew.
        #expect(try Self.entries(shared) == entries)
    }
}
