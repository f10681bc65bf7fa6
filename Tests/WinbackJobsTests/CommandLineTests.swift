import Foundation
import Testing
import WinbackTestSupport

/// Runs the built executable and checks exit codes and the first line of each message.
@Suite struct CommandLineTests {
    static var root: URL { Fixtures.packageRoot }

    /// A copy of jobs/sample.json in a temporary directory, with `edit` applied to its text.
    static func config(_ name: String, edit: (String) -> String) throws -> URL {
        try SampleConfig.copy(name, edit: edit)
    }

    @Test func verifyOnSampleDataSucceeds() throws {
        let result = try CommandRunner.run(["verify", "--config", Self.root.appendingPathComponent("jobs/sample.json").path, "--quiet"])
        #expect(result.exitCode == 0)
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix(#"{"command":"verify","records":{"read":"#))
        #expect(result.stdout.split(separator: "\n").count == 22)
    }

    @Test func unknownConfigKeyExits64NamingIt() throws {
        let url = try Self.config("bad-key") {
            $0.replacingOccurrences(of: "\"gracePeriodDays\"", with: "\"gracePeriod\": 1, \"gracePeriodDays\"")
        }
        let result = try CommandRunner.run(["verify", "--config", url.path])
        #expect(result.exitCode == 64)
        #expect(
            result.firstErrorLine
                == "winback: error: invalid config \(url.path): report.gracePeriod: unknown key (allowed here: commission, currency, exchangeRates, formats, gracePeriodDays, maxDataLagDays, maxLineBytes, maxRejectRate, taxRates, timeZone)"
        )
    }

    @Test func missingConfigExits74NamingThePath() throws {
        let result = try CommandRunner.run(["verify", "--config", "/nonexistent/winback.json"])
        #expect(result.exitCode == 74)
        #expect(result.firstErrorLine == "winback: error: I/O error: /nonexistent/winback.json: no such file")
    }

    @Test func rootThatIsNotACertificateExits64() throws {
        let directory = try CommandRunner.temporaryDirectory("bad-root")
        let bogus = directory.appendingPathComponent("root.pem")
        try "not a certificate".write(to: bogus, atomically: true, encoding: .utf8)
        let url = try Self.config("bad-root-config") {
            $0.replacingOccurrences(
                of: Self.root.appendingPathComponent("sample-data").path + "/certs/TEST-ONLY-root.pem", with: bogus.path)
        }
        let result = try CommandRunner.run(["verify", "--config", url.path])
        #expect(result.exitCode == 64)
        #expect(result.firstErrorLine.contains("trust.rootCertificates[0]"))
        #expect(result.firstErrorLine.contains("expected a DER or PEM X.509 certificate"))
    }

    @Test func rejectRateOverThresholdExits65() throws {
        let url = try Self.config("threshold") { $0.replacingOccurrences(of: "\"maxRejectRate\": 0.01", with: "\"maxRejectRate\": 0.001") }
        let result = try CommandRunner.run(["verify", "--config", url.path, "--quiet"])
        #expect(result.exitCode == 65)
        #expect(result.stdout.split(separator: "\n").last?.contains("\"exitCode\":65") == true)
    }

    @Test func unknownInputSuffixExits64() throws {
        let directory = try CommandRunner.temporaryDirectory("suffix")
        try "a,b\n".write(to: directory.appendingPathComponent("export.csv"), atomically: true, encoding: .utf8)
        let url = try Self.config("suffix-config") {
            $0.replacingOccurrences(of: "\"inputs\": [", with: "\"inputs\": [\"\(directory.path)/*.csv\", ")
        }
        let result = try CommandRunner.run(["verify", "--config", url.path])
        #expect(result.exitCode == 64)
        #expect(result.firstErrorLine.contains("expected a .ndjson, .jsonl or .json file (optionally .gz)"))
    }

    @Test func sampleDataIsDeterministicInContent() throws {
        let first = try CommandRunner.temporaryDirectory("sample-a")
        let second = try CommandRunner.temporaryDirectory("sample-b")
        for directory in [first, second] {
            let result = try CommandRunner.run(["sample-data", "--out", directory.path, "--subscriptions", "20", "--seed", "7"])
            #expect(result.exitCode == 0)
        }
        for name in ["expected-rejects.json", "winback.json", "keys/SubscriptionKey_TESTKEY001.p8"] {
            #expect(try Data(contentsOf: first.appendingPathComponent(name)) == (try Data(contentsOf: second.appendingPathComponent(name))))
        }
        let key = try FileManager.default.attributesOfItem(atPath: first.appendingPathComponent("keys/SubscriptionKey_TESTKEY001.p8").path)
        #expect((key[.posixPermissions] as? Int) == 0o600)
        let verify = try CommandRunner.run(["verify", "--config", first.appendingPathComponent("winback.json").path, "--quiet"])
        #expect(verify.exitCode == 0 || verify.exitCode == 65)
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// `winback run` as an operator runs it.
@Suite struct RunCommandLineTests {
    static var root: URL { Fixtures.packageRoot }

    @Test func secondRunExits75WhileTheLockIsHeld() throws {
        let output = try CommandRunner.temporaryDirectory("locked")
        let lockPath = output.appendingPathComponent(".lock").path
        let descriptor = open(lockPath, O_RDWR | O_CREAT, 0o644)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        _ = "pid 4242 started 2026-11-20T02:00:00.000Z\n".withCString { write(descriptor, $0, strlen($0)) }
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let result = try CommandRunner.run([
            "run", "--config", try SampleConfig.copy("locked-config").path, "--as-of", "2026-11-19", "--out", output.path,
        ])
        #expect(result.exitCode == 75)
        #expect(
            result.firstErrorLine
                == "winback: error: another run holds the lock \(lockPath) (pid 4242 started 2026-11-20T02:00:00.000Z); exiting")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("dt=2026-11-19").path))
    }

    @Test func badAsOfExits64() throws {
        let result = try CommandRunner.run([
            "run", "--config", Self.root.appendingPathComponent("jobs/sample.json").path, "--as-of", "2026-02-30",
        ])
        #expect(result.exitCode == 64)
        #expect(result.firstErrorLine == "winback: error: --as-of: expected a date YYYY-MM-DD, found '2026-02-30'")
    }

    @Test func runPublishesAndPrintsOneJSONLine() throws {
        let output = try CommandRunner.temporaryDirectory("run")
        let result = try CommandRunner.run([
            "run", "--config", try SampleConfig.copy("run-config").path, "--as-of", "2026-11-19", "--out", output.path, "--quiet",
        ])
        #expect(result.exitCode == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix(#"{"command":"run","asOf":"2026-11-19","output":""#) == true)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("dt=2026-11-19/_SUCCESS").path))
        // --quiet leaves only security warnings (the demo key is 0644 in a fresh clone: git keeps no 0600).
        #expect(result.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("warning: signing key ") }, "\(result.stderr)")
    }

    @Test func unwritableOutputExits74() throws {
        let result = try CommandRunner.run([
            "run", "--config", try SampleConfig.copy("unwritable").path, "--as-of", "2026-11-19", "--out", "/proc/winback-out",
        ])
        #expect(result.exitCode == 74)
        #expect(result.firstErrorLine.hasPrefix("winback: error: I/O error: /proc/winback-out"))
    }
}
