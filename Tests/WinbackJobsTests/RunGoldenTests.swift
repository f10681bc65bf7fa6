import Foundation
import Testing
import WinbackAppStore
import WinbackJobs
import WinbackSampleData
import WinbackServer
import WinbackTestSupport

/// Whole runs over `sample-data/` compared with committed expected outputs (`Tests/Golden/`).
///
/// Re-record with `WINBACK_RECORD_GOLDEN=1 swift test --filter RunGoldenTests`: recording rewrites the
/// files and fails the test, so nothing is accepted silently.
@Suite(.serialized) struct RunGoldenTests {
    static let asOf = "2026-11-19"
    /// The days `jobs/campaign-history.sh` runs before the sample day.
    static let historyDays = SubscriptionSimulator.campaignHistory.map { InstantFormat.date(days: $0 / InstantFormat.day) }
    static var goldenDirectory: URL { Fixtures.packageRoot.appendingPathComponent("Tests/Golden/sample-\(asOf)") }
    static var sampleConfig: String { Fixtures.packageRoot.appendingPathComponent("jobs/sample.json").path }

    /// A run with a fixed clock (2026-11-26T06:00:00Z) and sequential nonces, into `output` with its own ledger.
    static func run(
        into output: URL, ledger: URL? = nil, signingChunkSize: Int? = nil, asOf: String = asOf, usesStore: Bool = true,
        configPath: String = sampleConfig
    ) async throws -> RunJob.Outcome {
        let nonces = SequentialNonce()
        var options = RunOptions(
            configPath: configPath, asOf: asOf, outputOverride: output.path,
            ledgerOverride: (ledger ?? output.appendingPathComponent("ledger.sqlite")).path, isQuiet: true,
            now: { Date(timeIntervalSince1970: 1_795_672_800) }, nonce: { nonces.next() })
        if let signingChunkSize { options.signingChunkSize = signingChunkSize }
        options.usesStore = usesStore
        return try await RunJob.run(options)
    }

    /// A published file in comparable form: gzip decompressed; the manifest without compressed sizes and digests
    /// (they depend on the zlib build), everything else verbatim.
    static func comparable(_ url: URL) throws -> String {
        let bytes = try Data(contentsOf: url)
        if url.lastPathComponent == "offers.ndjson.gz" {
            // ECDSA signatures are randomised: keep everything else of each offer, mask the signatures.
            return try Gunzip.text(Array(bytes)).split(separator: "\n").map { line in
                let offer = try JSONParser.parse(String(line))
                return JSONText.render(
                    .object(
                        (offer.objectMembers ?? []).map { member in
                            var member = member
                            if ["signatureV1", "jwsV2", "jwsIntroEligibility"].contains(member.key), member.value != .null {
                                member.value = .string("<signature>")
                            }
                            return member
                        }))
            }.joined(separator: "\n") + "\n"
        }
        if url.pathExtension == "gz" { return try Gunzip.text(Array(bytes)) }
        if url.lastPathComponent == "_manifest.json" {
            let manifest = try JSONParser.parse(Array(bytes))
            guard case .object(var members) = manifest, let index = members.firstIndex(where: { $0.key == "outputs" }),
                case .array(let outputs) = members[index].value
            else { return String(decoding: bytes, as: UTF8.self) }
            members[index].value = JSONText.array(
                outputs.map { output in
                    .object((output.value.objectMembers ?? []).filter { $0.key != "bytes" && $0.key != "sha256" })
                })
            return JSONText.render(.object(members)) + "\n"
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `jobs/campaign-history.sh` runs the days the sample data was made for, then the sample day.
    @Test func theHistoryScriptRunsTheSimulatedDays() throws {
        let script = try String(
            contentsOf: Fixtures.packageRoot.appendingPathComponent("jobs/campaign-history.sh"), encoding: .utf8)
        #expect(script.contains("for day in " + (Self.historyDays + [Self.asOf]).joined(separator: " ") + "; do"))
    }

    /// Also with offers signed 5 accounts at a time (campaigns here have up to 84), which must not change a byte.
    @Test(arguments: [nil, 5])
    func sampleRunMatchesTheGoldenFiles(signingChunkSize: Int?) async throws {
        let output = try CommandRunner.temporaryDirectory("golden-\(signingChunkSize ?? 0)")
        // The sample's campaign history (jobs/campaign-history.sh) first, so campaign_outcomes has cohorts.
        for day in Self.historyDays {
            #expect(try await Self.run(into: output, signingChunkSize: signingChunkSize, asOf: day).exitCode == 0)
        }
        let outcome = try await Self.run(into: output, signingChunkSize: signingChunkSize)
        #expect(outcome.exitCode == 0)
        let published = output.appendingPathComponent("dt=\(Self.asOf)")
        let names = try FileManager.default.contentsOfDirectory(atPath: published.path).sorted()
        #expect(
            names == [
                "_SUCCESS", "_manifest.json", "campaign_outcomes.csv.gz", "churn_daily.csv.gz", "churn_monthly.csv.gz",
                "eligible_accounts.csv.gz",
                "events_daily.csv.gz",
                "expiration_reasons.csv.gz", "lifecycle_events.ndjson.gz", "ltv_cohorts.csv.gz", "mrr_monthly.csv.gz", "offer_usage.csv.gz",
                "offers.ndjson.gz", "refund_requests.csv.gz",
                "rejects.ndjson.gz", "renewal_outlook.csv.gz", "report.html", "retention_cohorts.csv.gz", "retention_decisions.csv.gz",
                "revenue_daily.csv.gz",
                "revenue_monthly.csv.gz",
                "subscriptions.csv.gz", "summary.json.gz",
            ])
        let isRecording = ProcessInfo.processInfo.environment["WINBACK_RECORD_GOLDEN"] == "1" && signingChunkSize == nil
        if isRecording { try FileManager.default.createDirectory(at: Self.goldenDirectory, withIntermediateDirectories: true) }
        for name in names where name != "_SUCCESS" {
            let actual = try Self.comparable(published.appendingPathComponent(name))
            let goldenName = name.hasSuffix(".gz") ? String(name.dropLast(3)) : name
            let golden = Self.goldenDirectory.appendingPathComponent(goldenName)
            if isRecording {
                try actual.write(to: golden, atomically: true, encoding: .utf8)
                continue
            }
            let expected = try String(contentsOf: golden, encoding: .utf8)
            #expect(
                actual == expected, "\(name) differs from Tests/Golden; re-record with WINBACK_RECORD_GOLDEN=1 if the change is intended")
        }
        #expect(!isRecording, "golden files re-recorded; review the diff and run again without WINBACK_RECORD_GOLDEN")
    }

    @Test func rerunningADayIsByteIdentical() async throws {
        let first = try CommandRunner.temporaryDirectory("rerun-a")
        let second = try CommandRunner.temporaryDirectory("rerun-b")
        let ledger = first.appendingPathComponent("shared-ledger.sqlite")
        _ = try await Self.run(into: first, ledger: ledger)
        _ = try await Self.run(into: second, ledger: ledger)  // re-emits the ledger's offers
        _ = try await Self.run(into: second, ledger: ledger)  // replacing an existing dt=<D>
        let directory = "dt=\(Self.asOf)"
        #expect(try !Self.comparable(first.appendingPathComponent(directory).appendingPathComponent("offers.ndjson.gz")).isEmpty)
        for name in try FileManager.default.contentsOfDirectory(atPath: first.appendingPathComponent(directory).path) {
            let a = try Data(contentsOf: first.appendingPathComponent(directory).appendingPathComponent(name))
            let b = try Data(contentsOf: second.appendingPathComponent(directory).appendingPathComponent(name))
            #expect(a == b, "\(name) differs between two runs of the same day")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: second.path).filter {
            $0.hasPrefix(".tmp-") || $0.hasPrefix(".old-")
        }
        #expect(leftovers.isEmpty)
    }

    @Test func summaryCountsAgreeWithTheReports() async throws {
        let output = try CommandRunner.temporaryDirectory("summary")
        _ = try await Self.run(into: output)
        let published = output.appendingPathComponent("dt=\(Self.asOf)")
        let summary = try JSONParser.parse(try Self.comparable(published.appendingPathComponent("summary.json.gz")))
        let subscriptions = try Self.comparable(published.appendingPathComponent("subscriptions.csv.gz")).split(separator: "\n").dropFirst()
        var byStatus: [String: Int64] = [:]
        var family: Int64 = 0
        for line in subscriptions {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            if fields[6] == "FAMILY_SHARED" { family += 1 } else { byStatus[String(fields[7]), default: 0] += 1 }
        }
        for (status, count) in byStatus {
            #expect(summary["subscriptionsByStatus"]?[status] == .integer(count))
        }
        #expect(summary["familySharedSubscriptions"] == .integer(family))
        guard case .integer(let read)? = summary["records"]?["read"], case .integer(let accepted)? = summary["records"]?["accepted"],
            case .integer(let rejected)? = summary["records"]?["rejected"]
        else {
            Issue.record("summary lacks record counts")
            return
        }
        #expect(read == accepted + rejected)
    }
}
