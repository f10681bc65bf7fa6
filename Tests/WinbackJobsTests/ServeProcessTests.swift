import Foundation
import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackSampleData
import WinbackTestSupport

/// `winback serve` as operators run it: a nightly run's decisions served by the executable until SIGTERM, and
/// HTTPS with `--tls-cert`/`--tls-key`.
@Suite struct ServeProcessTests {
    /// Reads `handle` up to the first newline.
    static func firstLine(_ handle: FileHandle) -> String {
        var bytes: [UInt8] = []
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            bytes += chunk
            if bytes.contains(UInt8(ascii: "\n")) { break }
        }
        return String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }

    /// `winback serve --config config --port 0` started, its stdout, and the JSON line it prints once listening.
    static func launch(_ config: URL, arguments: [String] = []) throws -> (Process, Pipe, JSONValue) {
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["serve", "--config", config.path, "--port", "0"] + arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, stdout, try JSONParser.parse(Array(firstLine(stdout.fileHandleForReading).utf8)))
    }

    @Test func servesTheNightsDecisionsUntilSIGTERM() async throws {
        let config = try RetentionDecisionsRunTests.config("serve-process", campaigns: ServeTests.campaigns)
        let night = try await CampaignRunTests.run(config, asOf: "2026-11-19")
        #expect(night.exitCode == 0)
        let decisions = try RetentionDecisionsRunTests.table(night, "retention_decisions.csv.gz")
        let treated = try #require(decisions.first { $0[1] == "rm-offer" && $0[3] == "treatment" }?[0])
        let held = decisions.first { $0[1] == "rm-offer" && $0[3] == "holdout" }?[0]

        let (process, stdout, listening) = try Self.launch(config)
        #expect(listening["decisionsDay"] == .string("2026-11-19"))
        #expect(listening["decisions"] == .integer(Int64(Set(decisions.map { $0[0] ?? "" }).count)))
        let address = try #require(listening["listening"]?.stringValue)

        let requests = try RetentionRequests()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let offer = try await LoopbackClient.send(
            "POST", address + "/retention", body: try requests.body(originalTransactionId: treated, signedDate: now))
        #expect(offer.status == 200 && offer.body.hasPrefix(#"{"promotionalOffer":{"messageIdentifier":"\#(ServeTests.message)""#))
        if let held {
            let fallback = try await LoopbackClient.send(
                "POST", address + "/retention", body: try requests.body(originalTransactionId: held, signedDate: now))
            #expect(fallback.body == #"{"message":{"messageIdentifier":"\#(ServeTests.fallback)"}}"#)
        }

        process.terminate()  // SIGTERM
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let rest = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let summary = try JSONParser.parse(Array((rest.split(separator: "\n").last.map(String.init) ?? "").utf8))
        #expect(summary["responses"] == .integer(held == nil ? 1 : 2))
        // The log of today's UTC date holds both answers; the ledger was never opened for writing by the server.
        let today = String(InstantFormat.iso8601(milliseconds: now).prefix(10))
        let log = config.deletingLastPathComponent().appendingPathComponent("state/retention-requests/\(today).ndjson")
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == (held == nil ? 1 : 2))
        #expect(lines.first?.contains(#""campaignId":"rm-offer","variant":"treatment","kind":"promotional_offer""#) == true)
    }

    @Test func servesHTTPSWithACertificate() async throws {
        let directory = try CommandRunner.temporaryDirectory("serve-tls")
        let pki = try TestPKI.make(seed: 99, rootLabel: "tls-root", leafLabel: "tls-leaf")
        let certificate = directory.appendingPathComponent("server.pem")
        try (TestPKI.pem(pki.leaf) + TestPKI.pem(pki.intermediate)).write(to: certificate, atomically: true, encoding: .utf8)
        let key = directory.appendingPathComponent("server.key")
        try pki.leaf.key.pemRepresentation.write(to: key, atomically: true, encoding: .utf8)
        let root = directory.appendingPathComponent("root.pem")
        try TestPKI.pem(pki.root).write(to: root, atomically: true, encoding: .utf8)

        let running = try await ServeTests.start("serve-tls-config", tls: (certificate.path, key.path))
        #expect(running.server.address.hasPrefix("https://127.0.0.1:"))
        let body = directory.appendingPathComponent("body.json")
        try Data(try running.requests.body(originalTransactionId: "1002", signedDate: running.clock.now())).write(to: body)
        // Python's ssl, trusting only the test root, posts the request (its host name is not checked: the test
        // certificate names no address).
        let script = """
            import http.client, ssl, sys
            context = ssl.create_default_context(cafile=sys.argv[1])
            context.check_hostname = False
            connection = http.client.HTTPSConnection("127.0.0.1", int(sys.argv[2]), context=context, timeout=60)
            connection.request("POST", "/retention", body=open(sys.argv[3], "rb").read(), headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            print(response.status, response.read().decode())
            """
        // Off the cooperative pool: the server answers on it (`completeWithTask`).
        let result = try await CommandRunner.runProgramOffThePool(
            "/usr/bin/env", ["python3", "-c", script, root.path, String(running.server.port), body.path])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("200 {\"alternateProduct\":"), "\(result.stdout)")
        _ = await running.server.stop()

        // A certificate file that is not PEM: 64, naming the flag.
        let config = running.directory.appendingPathComponent("config.json")
        let bad = try CommandRunner.run(["serve", "--config", config.path, "--port", "0", "--tls-cert", body.path, "--tls-key", key.path])
        #expect(bad.exitCode == 64)
        #expect(bad.stderr.split(separator: "\n").contains { $0.hasPrefix("winback: error: --tls-cert") })
    }
}
