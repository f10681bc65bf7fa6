import Crypto
import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackIO
import WinbackJobs

/// `winback sample-data`: writes the generated dataset, its TEST-ONLY root certificate, a demo
/// In-App Purchase key and a config (`winback.json`) that runs on it.
public enum SampleDataJob {
    /// What was written.
    public struct Outcome: Sendable, CommandSummary {
        /// Files written.
        public var files: Int
        /// Bytes written.
        public var bytes: Int
        /// Bad records injected (listed in `expected-rejects.json`).
        public var expectedRejects: Int
        /// The summary for stdout.
        public var summary: JSONValue
    }

    /// Writes a signed synthetic export, its TEST-ONLY PKI and key, and `winback.json` into `outputDirectory`;
    /// `sharedAccountShare` of the subscriptions belong to a customer who already has another.
    public static func run(outputDirectory: String, subscriptions: Int, seed: UInt64, sharedAccountShare: Double = 0) async throws
        -> Outcome
    {
        var generator = SampleDataGenerator(subscriptions: subscriptions, seed: seed)
        generator.sharedAccountShare = sharedAccountShare
        let root = FileSystem.resolve(outputDirectory, against: FileManager.default.currentDirectoryPath)
        var streamed: [(path: String, handle: FileHandle)] = []
        var streamedBytes = 0
        let dataset: SampleDataset
        do {
            dataset = try await generator.generate { path in
                let target = root + "/" + path
                try FileManager.default.createDirectory(
                    atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                guard FileManager.default.createFile(atPath: target, contents: nil), let handle = FileHandle(forWritingAtPath: target)
                else {
                    throw IOError(path: target, reason: "cannot write")
                }
                streamed.append((path, handle))
                return try GzipWriter { chunk in
                    try handle.write(contentsOf: chunk)
                    streamedBytes += chunk.count
                }
            }
            for (_, handle) in streamed { try handle.close() }
        } catch let error as IOError {
            throw JobError.io(error)
        } catch {
            throw JobError.internalError("sample data generation failed: \(error)")
        }
        let pki = try TestPKI.make(seed: seed)
        let signingKey = try TestPKI.key(seed: seed, label: "in-app-purchase-key")
        var files = dataset.files
        files.append(("certs/TEST-ONLY-root.pem", Array(try TestPKI.pem(pki.root).utf8)))
        files.append(("keys/SubscriptionKey_\(SampleDataGenerator.keyId).p8", Array(signingKey.pemRepresentation.utf8) + [0x0A]))
        files.append(("expected-rejects.json", Array(expectedRejectsJSON(dataset.expectedRejects).utf8)))
        files.append(("exchange-rates.csv", Array(exchangeRates().utf8)))
        files.append(("winback.json", Array(config(prefix: "", output: "out", ledger: "state/ledger.sqlite").utf8)))
        files.append(("README.md", Array(readme(subscriptions: subscriptions, seed: seed).utf8)))

        var bytes = streamedBytes
        for (path, contents) in files {
            let target = FileSystem.resolve(path, against: root)
            let directory = (target as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                let isKey = path.hasSuffix(".p8")
                guard
                    FileManager.default.createFile(
                        atPath: target, contents: Data(contents), attributes: isKey ? [.posixPermissions: 0o600] : nil)
                else {
                    throw IOError(path: target, reason: "cannot write")
                }
            } catch let error as IOError {
                throw JobError.io(error)
            } catch {
                throw JobError.io(IOError(path: directory, reason: "\(error.localizedDescription)"))
            }
            bytes += contents.count
        }
        let summary = JSONText.object([
            ("command", .string("sample-data")), ("subscriptions", .integer(Int64(subscriptions))),
            ("seed", .integer(Int64(bitPattern: seed))),
            ("files", .integer(Int64(files.count + streamed.count))), ("bytes", .integer(Int64(bytes))),
            ("injectedBadRecords", .integer(Int64(dataset.expectedRejects.count))),
        ])
        return Outcome(
            files: files.count + streamed.count, bytes: bytes, expectedRejects: dataset.expectedRejects.count,
            summary: summary)
    }

    /// `expected-rejects.json`: the injected bad records, one object per line inside an array.
    static func expectedRejectsJSON(_ rejects: [SampleDataset.ExpectedReject]) -> String {
        let lines = rejects.map { reject in
            "  "
                + JSONText.render(
                    JSONText.object([
                        ("source", .string(reject.source)), ("line", .integer(Int64(reject.line))),
                        ("path", reject.path.map { .string($0) } ?? .null), ("code", .string(reject.code)),
                    ]))
        }
        return "[\n" + lines.joined(separator: ",\n") + "\n]\n"
    }

    /// `exchange-rates.csv`: a USD rate for EUR, GBP and JPY on the first of every month from 2024-11, and for
    /// CAD only from 2025-03 (so the earlier CAD sales show as `unconverted`).
    static func exchangeRates() -> String {
        var lines = [ExchangeRates.header]
        for month in 0..<25 {
            let year = 2024 + (month + 10) / 12
            let day = "\(year)-" + String(format: "%02d", (month + 10) % 12 + 1) + "-01"
            let wobble = [0, 2, 3, 1, -1, -2][month % 6]
            lines.append("\(day),EUR,\(ExactDecimal(units: Int64(108 + wobble), scale: 2))")
            lines.append("\(day),GBP,\(ExactDecimal(units: Int64(127 + wobble), scale: 2))")
            lines.append("\(day),JPY,\(ExactDecimal(units: Int64(6_600 + 40 * wobble), scale: 6))")
            if month >= 4 { lines.append("\(day),CAD,\(ExactDecimal(units: Int64(7_300 + 50 * wobble), scale: 4))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A config for the dataset; `prefix` is the dataset's path relative to the config file.
    public static func config(prefix: String, output: String, ledger: String) -> String {
        """
        {
          "app": { "bundleId": "\(SampleDataGenerator.bundleId)", "appAppleId": \(SampleDataGenerator.appAppleId), "environment": "\(SampleDataGenerator.environment)" },
          "inputs": ["\(prefix)exports/**/*.ndjson.gz", "\(prefix)exports/**/*.ndjson", "\(prefix)exports/**/*.jsonl", "\(prefix)exports/**/*.json", "\(prefix)exports/**/*.json.gz"],
          "trust": { "rootCertificates": ["\(prefix)certs/TEST-ONLY-root.pem"], "acceptUnsignedPayloads": false },
          "report": { "timeZone": "UTC", "gracePeriodDays": 16, "maxRejectRate": 0.01,
                      "currency": "USD", "exchangeRates": "\(prefix)exchange-rates.csv",
                      "taxRates": { "DEU": 0.19, "FRA": 0.20, "GBR": 0.20, "JPN": 0.10 } },
          "signing": { "keyId": "\(SampleDataGenerator.keyId)", "issuerId": "\(SampleDataGenerator.issuerId)",
                       "privateKeyFile": "\(prefix)keys/SubscriptionKey_\(SampleDataGenerator.keyId).p8" },
          "ledger": "\(ledger)",
          "output": "\(output)",
        \(campaigns)
        }

        """
    }

    /// One campaign of each audience (the same as `jobs/sample.json`).
    static let campaigns = """
          "campaigns": [
            { "id": "winback-voluntary", "audience": "win_back",
              "offer": { "productId": null, "offerIdentifier": "winback.monthly.50off" },
              "rules": { "minPaidDays": 30, "minDaysSinceLapse": 7, "maxDaysSinceLapse": 365,
                         "lapseReasons": ["voluntary", "price_increase", "other", "unknown"],
                         "storefronts": null, "productIds": null },
              "holdoutPercent": 30, "cooldownDays": 90, "maxOffers": 50000, "signatures": ["v2", "v1"] },
            { "id": "winback-apple-eligible", "audience": "win_back",
              "offer": { "type": "win_back", "productId": "com.example.winback.monthly", "offerIdentifier": "winback.monthly.50off" },
              "rules": { "lapseReasons": ["voluntary"] },
              "holdoutPercent": 0, "cooldownDays": 30 },
            { "id": "retention-auto-renew-off", "audience": "retention",
              "offer": { "productId": null, "offerIdentifier": "retention.monthly.1" },
              "rules": { "maxDaysToExpiry": 14, "maxDaysSinceAutoRenewDisabled": 30 },
              "holdoutPercent": 10, "cooldownDays": 30, "signatures": ["v2", "v1", "intro"], "allowIntroductoryOffer": false },
            { "id": "price-increase-reminder", "audience": "price_increase",
              "offer": { "productId": null, "offerIdentifier": "retention.monthly.1" },
              "rules": { "maxDaysToExpiry": 30 },
              "holdoutPercent": 0, "cooldownDays": 30, "signatures": ["v2"] },
            { "id": "billing-fix", "audience": "billing_issue",
              "offer": { "productId": null, "offerIdentifier": null },
              "rules": {}, "holdoutPercent": 0, "cooldownDays": 7 }
          ]
        """

    static func readme(subscriptions: Int, seed: UInt64) -> String {
        """
        # Sample data — TEST ONLY

        Generated by `winback sample-data --subscriptions \(subscriptions) --seed \(seed)`. Synthetic: no real
        customer, no real Apple certificate.

        - `certs/TEST-ONLY-root.pem` — a generated root CA ("Winback TEST ONLY Root CA"). Its chain mimics
          Apple's (marker OIDs 1.2.840.113635.100.6.2.1 / 1.2.840.113635.100.6.11.1) but is **not Apple's**:
          never configure it in production.
        - `keys/SubscriptionKey_\(SampleDataGenerator.keyId).p8` — a **demo** In-App Purchase key (PKCS#8, P-256)
          derived from the seed. Public by design; it signs nothing Apple accepts.
        - `exports/` — every input shape docs/inputs.md lists: gzip NDJSON transactions with renewal infos, Server
          Notifications V2 (refunds re-sign transactions with `revocationDate`; auto-renew turned off is a
          `DID_CHANGE_RENEWAL_STATUS`), Get Transaction History and Get All Subscription Statuses documents, an
          array document, decoded payloads, and `exports/bad/` with malformed records of each reject kind. From
          2026-05 the annual plan carries `billingPlanType`: billed up front, or monthly over a 12-month
          commitment (`commitmentInfo` on its transactions and renewal info).
        - `exchange-rates.csv` — USD rates for the other currencies (`report.exchangeRates`); CAD's start late,
          in 2025-03, so earlier CAD sales are counted as `unconverted`.
        - `expected-rejects.json` — every injected bad record (source, line, path, code); the tests check that
          exactly these are rejected.
        - `winback.json` — a config that runs on this folder (`winback verify --config winback.json`).

        The simulated "now" is 2026-11-20T00:00:00Z. Payloads and keys are the same for the same seed; ECDSA
        signatures are randomised, so regenerating changes the signature bytes but not what they sign.

        """
    }
}
