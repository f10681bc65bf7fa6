import Foundation
import GRDB
import Testing
import WinbackAppStore
import WinbackJobs
import WinbackRemote
import WinbackSampleData
import WinbackTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 44, items 5, 6, 7 and 10: each reproducer ends in a named exit code or a warning, never a crash,
/// a hang or a wrong day published with exit 0.
@Suite(.serialized) struct HardeningPartTwoTests {
    /// A copy of the sample config whose `report.exchangeRates` names `rates`.
    static func config(_ name: String, rates: String) throws -> URL {
        let original = Fixtures.packageRoot.appendingPathComponent("sample-data/exchange-rates.csv").path
        return try SampleConfig.copy(name) { $0.replacingOccurrences(of: original, with: rates) }
    }

    @Test(arguments: ["a FIFO", "/dev/zero"])
    func anExchangeRatesFileThatIsNotAFileExits74(_ kind: String) throws {
        var rates = "/dev/zero"
        if kind == "a FIFO" {
            rates = try CommandRunner.temporaryDirectory("rates-fifo").appendingPathComponent("rates.csv").path
            #expect(mkfifo(rates, 0o644) == 0)
        }
        let config = try Self.config("rates-\(kind == "a FIFO" ? "fifo" : "zero")", rates: rates)
        let result = try CommandRunner.run(["run", "--config", config.path, "--as-of", "2026-11-19", "--quiet"])
        #expect(result.exitCode == 74, "\(result.stderr)")
        #expect(result.firstErrorLine.contains(rates) && result.firstErrorLine.contains("not a regular file"), "\(result.stderr)")
    }

    @Test func anExchangeRateTooLargeForMoneyIsAConfigError() throws {
        let directory = try CommandRunner.temporaryDirectory("rates-huge")
        let rates = directory.appendingPathComponent("rates.csv")
        try "date,currency,rate\n2026-01-01,EUR,100000000000\n".write(to: rates, atomically: true, encoding: .utf8)
        let config = try Self.config("rates-huge-config", rates: rates.path)
        let result = try CommandRunner.run(["run", "--config", config.path, "--as-of", "2026-11-19", "--quiet"])
        #expect(result.exitCode == 64, "\(result.stderr)")
        #expect(result.firstErrorLine.contains("rates.csv:2") && result.firstErrorLine.contains("100000000000"), "\(result.stderr)")
    }

    /// A day re-run reads its selections back from the ledger: a value of the wrong type, or a row that
    /// would be re-emitted damaged, is 74 naming the ledger; nothing is published.
    @Test(arguments: [
        "UPDATE selections SET timestamp_ms = 'noon' WHERE timestamp_ms IS NOT NULL",
        "UPDATE selections SET row = 'no newline'",
        "UPDATE selections SET payload = 'not json' WHERE payload IS NOT NULL",
    ])
    func aDamagedLedgerExits74NamingIt(_ damage: String) async throws {
        let shared = try CommandRunner.temporaryDirectory("ledger-damage")
        let ledger = shared.appendingPathComponent("ledger.sqlite")
        let first = try await RunGoldenTests.run(into: shared.appendingPathComponent("first"), ledger: ledger, usesStore: false)
        #expect(first.exitCode == 0)
        let queue = try DatabaseQueue(path: ledger.path)
        try await queue.write { try $0.execute(sql: damage) }
        try queue.close()
        do {
            _ = try await RunGoldenTests.run(into: shared.appendingPathComponent("second"), ledger: ledger, usesStore: false)
            Issue.record("a damaged ledger was read")
        } catch let error as JobError {
            #expect(error.exitCode == 74)
            #expect(error.description.contains(ledger.path) && error.description.contains("damaged"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: shared.appendingPathComponent("second/dt=2026-11-19").path))
    }

    @Test func anEmptyLedgerFileExits74() async throws {
        let shared = try CommandRunner.temporaryDirectory("ledger-empty")
        let ledger = shared.appendingPathComponent("ledger.sqlite")
        #expect(FileManager.default.createFile(atPath: ledger.path, contents: Data()))
        await #expect(throws: JobError.self) {
            _ = try await RunGoldenTests.run(into: shared.appendingPathComponent("out"), ledger: ledger, usesStore: false)
        }
        let reopened = Result { () throws(JobError) in try OfferLedger(path: ledger.path) }
        guard case .failure(let error) = reopened else {
            Issue.record("an empty ledger opened")
            return
        }
        #expect(error.exitCode == 74 && error.description.contains("empty file"), "\(error)")
    }

    /// A new ledger appears whole (built beside its path, then renamed): a run killed while creating it can
    /// never leave the empty file the check above refuses (the nightly SIGKILL test hit that window once).
    @Test func aNewLedgerIsNeverEmptyAndLeavesNoTemporaryFile() throws {
        let shared = try CommandRunner.temporaryDirectory("ledger-new")
        let ledger = shared.appendingPathComponent("ledger.sqlite")
        let opened = try OfferLedger(path: ledger.path)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: ledger.path)[.size] as? Int)
        #expect(size > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
        #expect(try Data(contentsOf: ledger).prefix(16) == Data("SQLite format 3\0".utf8))
        withExtendedLifetime(opened) {}
    }

    /// Two runs of one day with different `--out` sharing one ledger: the second is told another run holds
    /// the ledger (75), instead of a raw SQLite error.
    @Test func aLedgerInUseExits75NamingIt() async throws {
        let shared = try CommandRunner.temporaryDirectory("ledger-busy")
        let ledger = shared.appendingPathComponent("ledger.sqlite")
        let holder = try OfferLedger(path: ledger.path, startedAt: "2026-11-26T06:00:00Z")
        do {
            _ = try await RunGoldenTests.run(into: shared.appendingPathComponent("out"), ledger: ledger, usesStore: false)
            Issue.record("two runs used one ledger")
        } catch let error as JobError {
            #expect(error.exitCode == 75)
            #expect(error.description.contains("another run holds the ledger \(ledger.path)"), "\(error)")
        }
        withExtendedLifetime(holder) {}
    }

    @Test func aBlankLineIsNotARecordWhateverItsLength() throws {
        let pki = try TestPKI.make(seed: 44)
        let blank = [UInt8](repeating: 0x20, count: 5000) + [0x09, 0x0D, 0x0A] + [UInt8](repeating: 0x20, count: 300_000)
        let config = try HardeningTests.signedConfig(
            "blank-long-line", pki: pki, files: ["a.ndjson": blank + [0x0A], "b.ndjson": blank], report: #", "maxLineBytes": 1024"#)
        let result = try CommandRunner.run(["verify", "--config", config.path, "--quiet"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let summary = try JSONParser.parse(String(result.stdout.split(separator: "\n").last ?? ""))
        #expect(summary["records"]?["read"] == .integer(0), "\(result.stdout)")
    }

    @Test func aNegativeAppAppleIdIsAConfigError() throws {
        let config = try SampleConfig.copy("apple-id-negative") {
            $0.replacingOccurrences(of: #""appAppleId": 1234567890"#, with: #""appAppleId": -1"#)
        }
        let result = try CommandRunner.run(["verify", "--config", config.path, "--quiet"])
        #expect(result.exitCode == 64)
        #expect(result.firstErrorLine.contains("app.appAppleId") && result.firstErrorLine.contains("-1"), "\(result.stderr)")
    }

    /// `winback verify` checks the campaigns as `winback run` does: one validation.
    @Test func verifyRefusesTheCampaignsRunRefuses() throws {
        let config = try SampleConfig.copy("verify-campaigns") {
            $0.replacingOccurrences(of: #""holdoutPercent": 30"#, with: #""holdoutPercent": 130"#)
        }
        for command in ["verify", "run"] {
            let result = try CommandRunner.run(
                [command, "--config", config.path, "--as-of", "2026-11-19", "--quiet"].filter {
                    command == "run" || ($0 != "--as-of" && $0 != "2026-11-19")
                })
            #expect(result.exitCode == 64, "\(command): \(result.stderr)")
            #expect(result.firstErrorLine.contains("holdoutPercent"), "\(command): \(result.stderr)")
        }
    }
}
