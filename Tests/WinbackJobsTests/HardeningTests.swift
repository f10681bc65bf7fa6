import Foundation
import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackCrypto
import WinbackSampleData
import WinbackTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Inputs that once crashed, stalled or bloated a night: each is now a located rejection or a named exit.
@Suite struct HardeningTests {
    /// A directory with a TEST-ONLY root, a config trusting it (reject rate up to 1, so a run of bad
    /// records still publishes) and `files` as its only inputs.
    static func signedConfig(_ name: String, pki: TestPKI, files: [String: [UInt8]], report: String = "") throws -> URL {
        let directory = try CommandRunner.temporaryDirectory(name)
        try TestPKI.pem(pki.root).write(to: directory.appendingPathComponent("root.pem"), atomically: true, encoding: .utf8)
        let inputs = directory.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for (file, bytes) in files { try Data(bytes).write(to: inputs.appendingPathComponent(file)) }
        let config = """
            {"app": {"bundleId": "\(SampleDataGenerator.bundleId)", "appAppleId": \(SampleDataGenerator.appAppleId), "environment": "\(SampleDataGenerator.environment)"},
             "inputs": ["in/*"], "trust": {"rootCertificates": ["root.pem"]},
             "report": {"timeZone": "UTC", "gracePeriodDays": 16, "maxRejectRate": 1\(report)},
             "ledger": "state/ledger.sqlite", "output": "out", "campaigns": []}
            """
        let url = directory.appendingPathComponent("config.json")
        try config.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// The first simulated transaction payload with `edit` applied to its members.
    static func transaction(seed: UInt64, edit: [String: JSONValue]) throws -> JSONValue {
        var simulator = SubscriptionSimulator(sampleSeed: seed)
        guard case .object(let members)? = simulator.simulate(index: 0).transactions.first else { return .null }
        var pairs = members.map { ($0.key, edit[$0.key] ?? $0.value) }
        for (key, value) in edit where !pairs.contains(where: { $0.0 == key }) { pairs.append((key, value)) }
        return JSONText.object(pairs)
    }

    /// Instants Int64 arithmetic cannot carry through spans, grace and cohorts: each is an `invalid_field`
    /// rejection naming the field, and the run publishes every report (it crashed with SIGILL before).
    @Test(arguments: [
        ("purchaseDate", Int64(0), "expiresDate", Int64.max),
        ("purchaseDate", Int64.min, "expiresDate", Int64(1_795_000_000_000)),
        ("expiresDate", Int64.max, "revocationDate", Int64(1_795_000_000_000)),
        ("revocationDate", Int64.min, "expiresDate", Int64(1_795_000_000_000)),
    ])
    func extremeInstantsAreRejectedNamingTheField(first: String, firstValue: Int64, second: String, secondValue: Int64) throws {
        let pki = try TestPKI.make(seed: 11)
        let signer = JWSSigner(key: pki.leaf.key)
        let bad = try Self.transaction(seed: 11, edit: [first: .integer(firstValue), second: .integer(secondValue)])
        let good = try Self.transaction(seed: 12, edit: [:])
        var lines = ""
        for payload in [bad, good] {
            let jws = try signer.sign(header: pki.jwsHeader, payload: payload)
            lines += JSONText.render(JSONText.object([("signedTransactionInfo", .string(jws))])) + "\n"
        }
        let config = try Self.signedConfig("instants-\(first)-\(firstValue)", pki: pki, files: ["tx.ndjson": Array(lines.utf8)])
        let result = try CommandRunner.run(["run", "--config", config.path, "--as-of", "2026-11-19", "--quiet"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let published = config.deletingLastPathComponent().appendingPathComponent("out/dt=2026-11-19")
        for report in ["subscriptions.csv.gz", "churn_monthly.csv.gz", "retention_cohorts.csv.gz", "report.html", "_SUCCESS"] {
            #expect(FileManager.default.fileExists(atPath: published.appendingPathComponent(report).path), "\(report)")
        }
        let rejects = try Gunzip.text(Array(try Data(contentsOf: published.appendingPathComponent("rejects.ndjson.gz"))))
        let reject = try JSONParser.parse(String(rejects.split(separator: "\n").first ?? ""))
        #expect(reject["code"] == .string("invalid_field"))
        #expect(reject["line"] == .integer(1))
        let message = reject["message"]?.stringValue ?? ""
        #expect(message.contains("expected an instant from 2007-01-01 to 9999-12-31"), "\(message)")
        #expect(message.hasPrefix("field '\(first)'") || message.hasPrefix("field '\(second)'"), "\(message)")
        #expect(result.stdout.contains(#""read":2,"accepted":1,"rejected":1"#), "\(result.stdout)")
    }

    /// A line over `report.maxLineBytes` is one located rejection keeping its first bytes; the next line is
    /// read as usual.
    @Test func anOverLongLineIsOneRejectionAndReadingResumes() throws {
        let pki = try TestPKI.make(seed: 13)
        let signer = JWSSigner(key: pki.leaf.key)
        let good = try signer.sign(header: pki.jwsHeader, payload: try Self.transaction(seed: 13, edit: [:]))
        let long = #"{"signedTransactionInfo": ""# + String(repeating: "a", count: 300_000) + "\"}"
        let text = "{\"signedTransactionInfo\": \"\(good)\"}\n\(long)\n{\"signedTransactionInfo\": \"\(good)\"}\n"
        let config = try Self.signedConfig(
            "long-line", pki: pki, files: ["tx.ndjson": Array(text.utf8)], report: #", "maxLineBytes": 65536"#)
        let result = try CommandRunner.run(["verify", "--config", config.path, "--quiet"])
        #expect(result.exitCode == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let reject = try JSONParser.parse(lines.first ?? "")
        #expect(reject["code"] == .string("malformed_json"))
        #expect(reject["line"] == .integer(2))
        #expect(reject["message"]?.stringValue?.hasPrefix("record of \(long.utf8.count) bytes is over report.maxLineBytes") == true)
        #expect(reject["record"]?.stringValue == String(long.prefix(4096)))
        #expect(lines.last?.contains(#""read":3,"accepted":2,"rejected":1"#) == true)
    }

    /// A FIFO matched by a glob would block the run forever while it holds the lock; a dangling link is a
    /// file that should be there. Both are exit 74 naming the path, at once.
    @Test(arguments: ["fifo", "dangling"])
    func aMatchThatIsNotARegularFileExits74NamingIt(kind: String) throws {
        let pki = try TestPKI.make(seed: 14)
        let config = try Self.signedConfig("not-regular-\(kind)", pki: pki, files: [:])
        let path = config.deletingLastPathComponent().appendingPathComponent("in/export.ndjson").path
        if kind == "fifo" {
            #expect(mkfifo(path, 0o644) == 0)
        } else {
            #expect(symlink("/nonexistent/export.ndjson", path) == 0)
        }
        let result = try CommandRunner.run(["run", "--config", config.path, "--as-of", "2026-11-19", "--quiet"])
        #expect(result.exitCode == 74)
        #expect(result.firstErrorLine.contains("in/export.ndjson"), "\(result.stderr)")
        #expect(
            result.firstErrorLine.contains(kind == "fifo" ? "not a regular file (a FIFO)" : "symbolic link cannot be followed"),
            "\(result.stderr)")
    }

    /// stdout's last line is a JSON summary on every exit: a bad flag, an invalid or empty config, a
    /// missing file.
    @Test(arguments: [
        (["run", "--config", "/nonexistent/winback.json"], "run", Int32(74), "I/O error: /nonexistent/winback.json: no such file"),
        (["verify", "--config", "/dev/null"], "verify", 74, "I/O error: /dev/null: not a regular file (a character device)"),
        (["run", "--config", "x.json", "--frobnicate"], "run", 64, "Unknown option '--frobnicate'"),
    ])
    func everyFailingExitEndsStdoutWithASummary(arguments: [String], command: String, code: Int32, error: String) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.exitCode == code)
        let summary = try JSONParser.parse(String(result.stdout.split(separator: "\n").last ?? ""))
        #expect(summary["command"] == .string(command))
        #expect(summary["exitCode"] == .integer(Int64(code)))
        #expect(summary["error"]?.stringValue?.contains(error) == true, "\(result.stdout)")
    }

    /// A reject whose line is not valid UTF-8 keeps its exact bytes in `recordBase64`.
    @Test func aRejectThatIsNotUTF8KeepsItsBytes() throws {
        let line: [UInt8] = Array(#"{"signedTransactionInfo": "a.b"#.utf8) + [0xFF, 0xFE, 0xC3] + Array(#".c"}"#.utf8)
        let pki = try TestPKI.make(seed: 15)
        let config = try Self.signedConfig("not-utf8", pki: pki, files: ["tx.ndjson": line + [0x0A]])
        let result = try CommandRunner.run(["verify", "--config", config.path, "--quiet"])
        let reject = try JSONParser.parse(String(result.stdout.split(separator: "\n").first ?? ""))
        #expect(reject["record"]?.stringValue?.contains("\u{FFFD}") == true)
        let bytes = try #require(reject["recordBase64"]?.stringValue.flatMap { Data(base64Encoded: $0) })
        #expect(Array(bytes) == line)
    }

    /// A valid UTF-8 reject has no `recordBase64`; a file name with a line break stays on one log line.
    @Test func verboseLinesEscapeControlCharactersAndValidRejectsHaveNoBase64() {
        let rejection = Rejection(
            location: RecordLocation(source: "in/a\nb.ndjson", line: 3, path: nil), failure: RecordFailure(.malformedJSON, "bad"),
            text: RecordText("{not json"))
        #expect(rejection.diagnostic == "in/a\\nb.ndjson:3: error: malformed_json: bad")
        #expect(!rejection.jsonLine.contains("recordBase64"))
    }

    /// `--quiet` silences progress, not the warning that the signing key is readable by others.
    @Test func quietStillWarnsAboutAnExposedSigningKey() throws {
        let directory = try CommandRunner.temporaryDirectory("exposed-key")
        let key = directory.appendingPathComponent("key.p8")
        try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("sample-data/keys/SubscriptionKey_TESTKEY001.p8")).write(to: key)
        #expect(chmod(key.path, 0o644) == 0)
        let config = try SampleConfig.copy("exposed-key-config") {
            $0.replacingOccurrences(
                of: Fixtures.packageRoot.appendingPathComponent("sample-data/keys/SubscriptionKey_TESTKEY001.p8").path, with: key.path)
        }
        let result = try CommandRunner.run(["run", "--config", config.path, "--as-of", "2026-11-19", "--quiet"])
        #expect(result.exitCode == 0)
        #expect(result.stderr.contains("warning: signing key \(key.path) is readable by group or others"), "\(result.stderr)")
    }
}
