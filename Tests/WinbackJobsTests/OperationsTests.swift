import Foundation
import Testing
import WinbackAppStore
import WinbackTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Failure modes and the nightly script, run as an operator would.
@Suite struct OperationsTests {
    /// A config reading only `files` (written into its directory) with the sample root.
    static func inputsConfig(_ name: String, files: [String: [UInt8]]) throws -> URL {
        let config = try SampleConfig.copy(name) { text in
            guard let start = text.range(of: "\"inputs\": [")?.lowerBound,
                let end = text.range(of: "],", range: start..<text.endIndex)?.upperBound
            else { return "the sample config has no inputs array" }
            return text.replacingCharacters(in: start..<end, with: "\"inputs\": [\"in/*\"],")
        }
        let directory = config.deletingLastPathComponent().appendingPathComponent("in")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, bytes) in files { try Data(bytes).write(to: directory.appendingPathComponent(name)) }
        return config
    }

    @Test func truncatedGzipIsOneLocatedRejectionAfterTheGoodRecords() throws {
        let sample = Fixtures.packageRoot.appendingPathComponent("sample-data/exports/transactions/part-0.ndjson.gz")
        let bytes = Array(try Data(contentsOf: sample))
        let config = try Self.inputsConfig("truncated", files: ["part.ndjson.gz": Array(bytes.prefix(bytes.count / 2))])
        let result = try CommandRunner.run(["verify", "--config", config.path, "--quiet"])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let reject = try JSONParser.parse(lines[0])
        #expect(reject["code"] == .string("malformed_json"))
        #expect(reject["message"]?.stringValue?.hasPrefix("input damaged: gzip stream truncated") == true)
        let summary = try JSONParser.parse(lines[1])
        guard case .integer(let accepted)? = summary["records"]?["accepted"] else {
            Issue.record("no accepted count")
            return
        }
        #expect(accepted > 100)
        #expect(result.exitCode == 0)
    }

    /// A gzip `.json` document cut half-way (docs/inputs.md): the elements before the damage are records, the
    /// rest one located `malformed_json` reject.
    @Test func aTruncatedGzipDocumentKeepsTheRecordsBeforeTheDamage() throws {
        let sample = Fixtures.packageRoot.appendingPathComponent("sample-data/exports/status/statuses.json.gz")
        let bytes = Array(try Data(contentsOf: sample))
        let config = try Self.inputsConfig("truncated-document", files: ["statuses.json.gz": Array(bytes.prefix(bytes.count * 3 / 4))])
        let result = try CommandRunner.run(["verify", "--config", config.path, "--quiet"])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let rejects = try lines.dropLast().map { try JSONParser.parse($0) }
        #expect(rejects.count == 1, "\(result.stdout)")
        #expect(rejects.first?["code"] == .string("malformed_json"))
        #expect(rejects.first?["message"]?.stringValue?.hasPrefix("input damaged: gzip stream truncated") == true, "\(result.stdout)")
        #expect(rejects.first?["path"]?.stringValue?.contains("].lastTransactions[") == true, "\(result.stdout)")
        let summary = try JSONParser.parse(try #require(lines.last))
        guard case .integer(let accepted)? = summary["records"]?["accepted"] else {
            Issue.record("no accepted count")
            return
        }
        #expect(accepted >= 2)
    }

    @Test func aTenMegabyteLineIsOneRejection() throws {
        let line =
            Array(#"{"signedTransactionInfo": ""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 10_000_000) + Array("\"}\n".utf8)
        let config = try Self.inputsConfig("huge-line", files: ["big.ndjson": line])
        let result = try CommandRunner.run(["verify", "--config", config.path, "--quiet"])
        #expect(result.exitCode == 65)
        let first = try JSONParser.parse(String(result.stdout.split(separator: "\n")[0]))
        #expect(first["code"] == .string("malformed_jws"))
        #expect(first["line"] == .integer(1))
    }

    @Test func anEmptyExportReadsNothingAndSucceeds() throws {
        let config = try Self.inputsConfig("empty", files: ["empty.ndjson": [], "blank.jsonl": Array("\n\n".utf8)])
        let result = try CommandRunner.run(["run", "--config", config.path, "--as-of", "2026-11-19", "--quiet"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains(#""read":0,"accepted":0,"rejected":0"#))
    }

    /// Child process ids of `parent`, from /proc/<pid>/stat.
    static func children(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent ? pid : nil
        }
    }

    @Test func nightlyScriptRunsOneAtATimeAndRecoversFromSIGKILL() throws {
        let config = try SampleConfig.copy("nightly")
        let logs = config.deletingLastPathComponent().appendingPathComponent("logs")
        let environment = [
            "WINBACK_BIN": CommandRunner.executable.path, "WINBACK_CONFIG": config.path, "WINBACK_LOG_DIR": logs.path,
            "WINBACK_AS_OF": "2026-11-19",
        ]
        let script = Fixtures.packageRoot.appendingPathComponent("jobs/nightly.sh").path
        let first = Process()
        first.executableURL = URL(fileURLWithPath: "/bin/bash")
        first.arguments = [script]
        // The first run waits inside the ledger transaction until it is killed: on a loaded machine it could
        // otherwise finish before the second nightly starts, and the test would see two clean runs.
        first.environment = ProcessInfo.processInfo.environment.merging(environment.merging(["WINBACK_TEST_PAUSE_AT": "signed"]) { $1 }) {
            $1
        }
        first.standardOutput = FileHandle.nullDevice
        first.standardError = FileHandle.nullDevice
        try first.run()
        // Wait until the script has started winback, then try a second nightly.
        var children: [Int32] = []
        for _ in 0..<200 where children.isEmpty {
            Thread.sleep(forTimeInterval: 0.05)
            children = Self.children(of: first.processIdentifier)
        }
        #expect(!children.isEmpty)
        let second = try CommandRunner.runProgram("/bin/bash", [script], environment: environment)
        #expect(second.exitCode == 75)
        // SIGKILL the first nightly: winback and the script, as `kill -9` on the job would.
        for child in children { kill(child, SIGKILL) }
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        let day = config.deletingLastPathComponent().appendingPathComponent("out/dt=2026-11-19")
        #expect(!FileManager.default.fileExists(atPath: day.path), "the first run was killed before publishing")
        let again = try CommandRunner.runProgram("/bin/bash", [script], environment: environment)
        #expect(again.exitCode == 0)
        #expect(FileManager.default.fileExists(atPath: day.appendingPathComponent("_SUCCESS").path))
        let log = try String(contentsOf: logs.appendingPathComponent("winback-2026-11-19.log"), encoding: .utf8)
        #expect(log.contains("nightly.sh: exit 0"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: day.deletingLastPathComponent().path).filter {
            $0.hasPrefix(".tmp-")
        }
        #expect(leftovers.isEmpty)
    }
}

@Suite struct OperationsMoreTests {
    @Test func anInputThatCannotBeReadExits74NamingIt() throws {
        let config = try OperationsTests.inputsConfig("unreadable", files: [:])
        let directory = config.deletingLastPathComponent().appendingPathComponent("in")
        // Reading /proc/self/mem at offset 0 fails with EIO even for root: an input the OS refuses to read.
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("broken.ndjson").path, withDestinationPath: "/proc/self/mem")
        let result = try CommandRunner.run(["run", "--config", config.path, "--as-of", "2026-11-19"])
        #expect(result.exitCode == 74)
        #expect(result.firstErrorLine.hasPrefix("winback: error: I/O error: in/broken.ndjson: "))
    }

    @Test func sigtermMidRunLeavesThePreviousDayCompleteAndNoLeftoversAfterTheNextRun() throws {
        let config = try SampleConfig.copy("sigterm")
        let arguments = ["run", "--config", config.path, "--as-of", "2026-11-19", "--quiet"]
        #expect(try CommandRunner.run(arguments).exitCode == 0)
        let out = config.deletingLastPathComponent().appendingPathComponent("out")
        let before = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("dt=2026-11-19").path).sorted()

        // The second run waits inside the ledger transaction, offers signed and written to its
        // temporary directory, until SIGTERM.
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["WINBACK_TEST_PAUSE_AT": "signed"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("winback: test pause at signed") {
            let more = errors.fileHandleForReading.availableData
            if more.isEmpty { break }  // the process ended without pausing
            said += more
        }
        #expect(String(decoding: said, as: UTF8.self).contains("winback: test pause at signed"))
        process.terminate()  // SIGTERM
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let after = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("dt=2026-11-19").path).sorted()
        #expect(after == before)
        #expect(after.contains("_SUCCESS"))

        #expect(try CommandRunner.run(arguments).exitCode == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: out.path).filter {
            $0.hasPrefix(".tmp-") || $0.hasPrefix(".old-")
        }
        #expect(leftovers.isEmpty)
    }

    @Test func backfillingAnOldDayLeavesOutLaterPurchases() async throws {
        let config = try SampleConfig.copy("backfill")
        let arguments = ["run", "--config", config.path, "--as-of", "2025-06-30", "--quiet"]
        #expect(try CommandRunner.run(arguments).exitCode == 0)
        let day = config.deletingLastPathComponent().appendingPathComponent("out/dt=2025-06-30")
        let subscriptions = try Gunzip.text(Array(try Data(contentsOf: day.appendingPathComponent("subscriptions.csv.gz"))))
        let rows = subscriptions.split(separator: "\n").dropFirst()
        #expect(!rows.isEmpty && rows.count < 500)
        // No transaction purchased on or after 2025-07-01T00:00Z is visible: every current period starts before it.
        #expect(rows.allSatisfy { String($0.split(separator: ",", omittingEmptySubsequences: false)[9]) < "2025-07-01T00:00:00.000Z" })
        let summary = try Gunzip.text(Array(try Data(contentsOf: day.appendingPathComponent("summary.json.gz"))))
        #expect(summary.contains(#""future":"#) && !summary.contains(#""future":0,"#))
        // Re-running the backfill reproduces it byte for byte.
        let first = try Data(contentsOf: day.appendingPathComponent("subscriptions.csv.gz"))
        #expect(try CommandRunner.run(arguments).exitCode == 0)
        #expect(try Data(contentsOf: day.appendingPathComponent("subscriptions.csv.gz")) == first)
    }

    @Test func verboseListsEveryRejectionOnStderr() throws {
        let result = try CommandRunner.run([
            "verify", "--config", Fixtures.packageRoot.appendingPathComponent("jobs/sample.json").path, "--verbose",
        ])
        let diagnostics = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(diagnostics.count == 21)
        #expect(
            diagnostics.contains {
                $0
                    == "../sample-data/exports/bad/injected.ndjson:11: error: invalid_signature: ES256 signature does not verify with the leaf key (signedTransactionInfo)"
            })
    }

    @Test func aTerminalGetsALiveProgressLineWithAnETA() throws {
        // `script` gives the run a terminal; without one the same run prints plain phase lines.
        let command =
            "\(CommandRunner.executable.path) verify --config \(Fixtures.packageRoot.appendingPathComponent("jobs/sample.json").path)"
        let result = try CommandRunner.runProgram("/usr/bin/script", ["-qc", command, "/dev/null"])
        #expect(result.stdout.contains("records/s") && result.stdout.contains("ETA"))
        let plain = try CommandRunner.run(["verify", "--config", Fixtures.packageRoot.appendingPathComponent("jobs/sample.json").path])
        #expect(plain.stderr.hasPrefix("phase=ingest records="))
        // The phase's CPU (user + system, all threads) and, for the ingest, the signature checks' share of it
        // (estimated from a sample) and their number: numbers, not placeholders.
        let phaseLine = plain.stderr.split(separator: "\n").first ?? ""
        var values: [String: Double] = [:]
        for pair in phaseLine.split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = Double(parts[1]) }
        }
        #expect(values["cpu_seconds"].map { $0 > 0 } == true, "\(phaseLine)")
        #expect(values["signature_cpu_seconds"].map { $0 > 0 && $0 < values["cpu_seconds"] ?? 0 } == true, "\(phaseLine)")
        #expect(values["records"].map { $0 > 3000 } == true, "\(phaseLine)")
        #expect(values["signature_checks"].map { $0 > 3000 && $0 <= values["records"] ?? 0 } == true, "\(phaseLine)")
        #expect(!plain.stderr.contains("ETA"))
    }
}
