import Crypto
import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackCrypto
import WinbackIO

/// Builds the synthetic, signed demo dataset of `winback sample-data`: a TEST-ONLY PKI, a demo
/// In-App Purchase key, simulated subscriptions written in every input shape of docs/inputs.md, and a few
/// malformed records of each reject kind (listed in `expected-rejects.json`).
public struct SampleDataGenerator: Sendable {
    /// The synthetic app's bundle identifier.
    public static let bundleId = "com.example.winback"
    /// The synthetic app's Apple id.
    public static let appAppleId: Int64 = 1_234_567_890
    /// The synthetic exports' environment.
    public static let environment = "Production"
    /// The synthetic app, as a config names it.
    public static let app = AppIdentity(bundleId: bundleId, appAppleId: appAppleId, environment: environment)
    /// The demo In-App Purchase key's id.
    public static let keyId = "TESTKEY001"
    /// The demo issuer id.
    public static let issuerId = "57246542-96fe-1a63-e053-0824d011072a"
    /// The simulated "now": 2026-11-20T00:00:00Z.
    public static let anchor: Int64 = InstantFormat.days(year: 2026, month: 11, day: 20) * InstantFormat.day

    /// Subscriptions to simulate.
    public var subscriptions: Int
    /// The seed: equal seeds give equal payloads and keys.
    public var seed: UInt64
    /// The share (0–1) of subscriptions whose customer already has another (``SubscriptionSimulator/sharedAccountShare``).
    public var sharedAccountShare = 0.0

    /// A generator of `subscriptions` subscriptions from `seed`.
    public init(subscriptions: Int, seed: UInt64) {
        self.subscriptions = subscriptions
        self.seed = seed
    }

    private struct Signer: Sendable {
        let pki: TestPKI
        func sign(_ payload: JSONValue, header: JSONValue? = nil) throws -> String {
            let header = header ?? pki.jwsHeader
            return try JWSSigner(key: pki.leaf.key).sign(header: header, payload: payload)
        }
    }

    /// Generates the dataset. The large gzip NDJSON files are streamed through writers that `open` returns
    /// for a dataset-relative path; the small files come back in the dataset.
    public func generate(open: (String) throws -> GzipWriter) async throws -> SampleDataset {
        let pki = try TestPKI.make(seed: seed)
        let signer = Signer(pki: pki)
        var simulator = SubscriptionSimulator(sampleSeed: seed)
        simulator.sharedAccountShare = sharedAccountShare
        var dataset = SampleDataset(subscriptionCount: subscriptions)

        // 1 and 2 stream: chunks of subscriptions are simulated in order, signed on all cores, and appended in
        // order to gzip NDJSON — two transaction parts ({"signedTransactionInfo"} lines, the renewal info on each
        // subscription's last line) and the Server Notifications V2 (refunds carry the re-signed transaction; some
        // purchases; one subtype Apple may add later, kept raw and counted as a warning; a TEST at the end).
        // Memory holds one chunk, so a million subscriptions fit.
        let half = (subscriptions + 1) / 2
        let parts = [try open("exports/transactions/part-0.ndjson.gz"), try open("exports/transactions/part-1.ndjson.gz")]
        let notifications = try open("exports/notifications/notifications.ndjson.gz")
        var simulated: [SimulatedSubscription] = []
        var notificationCount = 0
        var start = 0
        while start < subscriptions {
            let end = min(start + 512, subscriptions)
            let chunk = (start..<end).map { simulator.simulate(index: $0) }
            if simulated.count < 12 { simulated += chunk.prefix(12 - simulated.count) }
            let numbers = chunk.map { subscription in
                subscription.notifications.map { _ in
                    notificationCount += 1
                    return notificationCount
                }
            }
            // A task per subscription (a few signatures each, ~0.3 ms), the chunk's results in chunk order.
            let signed = try await withThrowingTaskGroup(of: (Int, ([String], [String])).self) { group in
                for offset in chunk.indices {
                    group.addTask { (offset, try self.lines(for: chunk[offset], notificationNumbers: numbers[offset], signer: signer)) }
                }
                var lines = [([String], [String])?](repeating: nil, count: chunk.count)
                for try await (offset, result) in group { lines[offset] = result }
                return lines
            }
            for offset in chunk.indices {
                guard let (transactionLines, notificationLines) = signed[offset] else { continue }
                let part = parts[start + offset < half ? 0 : 1]
                for line in transactionLines { try part.write(line + "\n") }
                for line in notificationLines { try notifications.write(line + "\n") }
            }
            start = end
        }
        let testNotification = JSONText.object([
            ("notificationType", .string("TEST")), ("notificationUUID", .string(deterministicUUID(0))),
            (
                "data",
                JSONText.object([
                    ("appAppleId", .integer(Self.appAppleId)), ("bundleId", .string(Self.bundleId)),
                    ("environment", .string(Self.environment)),
                ])
            ),
            ("version", .string("2.0")), ("signedDate", .integer(Self.anchor - 3_600_000)),
        ])
        try notifications.write(JSONText.render(JSONText.object([("signedPayload", .string(try signer.sign(testNotification)))])) + "\n")
        for writer in parts + [notifications] { try writer.finish() }

        // 3. Get Transaction History responses (JSON documents, pretty-printed) for a few subscriptions.
        for subscription in simulated.prefix(4) {
            var text = "{\n  \"revision\": \"rev-\(subscription.originalTransactionId)\",\n  \"bundleId\": \"\(Self.bundleId)\",\n"
            text += "  \"appAppleId\": \(Self.appAppleId),\n  \"environment\": \"\(Self.environment)\",\n  \"hasMore\": false,\n"
            text += "  \"signedTransactions\": [\n"
            text += try subscription.transactions.map { "    \"\(try signer.sign($0))\"" }.joined(separator: ",\n")
            text += "\n  ]\n}\n"
            dataset.files.append(("exports/history/history-\(subscription.originalTransactionId).json", Array(text.utf8)))
        }

        // 4. A Get All Subscription Statuses response (gzip JSON document).
        var groups: [String] = []
        for subscription in simulated.dropFirst(4).prefix(4) {
            guard let last = subscription.transactions.last else { continue }
            var item =
                "        {\n          \"status\": 1,\n          \"originalTransactionId\": \"\(subscription.originalTransactionId)\",\n"
            item += "          \"signedTransactionInfo\": \"\(try signer.sign(last))\""
            if let renewal = subscription.renewalInfo { item += ",\n          \"signedRenewalInfo\": \"\(try signer.sign(renewal))\"" }
            item += "\n        }"
            let groupId = last["subscriptionGroupIdentifier"]?.stringValue ?? ""
            groups.append(
                "    {\n      \"subscriptionGroupIdentifier\": \"\(groupId)\",\n      \"lastTransactions\": [\n\(item)\n      ]\n    }")
        }
        let statuses =
            "{\n  \"environment\": \"\(Self.environment)\",\n  \"bundleId\": \"\(Self.bundleId)\",\n  \"appAppleId\": \(Self.appAppleId),\n  \"data\": [\n\(groups.joined(separator: ",\n"))\n  ]\n}\n"
        dataset.files.append(("exports/status/statuses.json.gz", try GzipWriter.compress(Array(statuses.utf8))))

        // 5. An array document of NDJSON-style objects.
        var elements: [String] = []
        for subscription in simulated.dropFirst(8).prefix(3) {
            for transaction in subscription.transactions.suffix(2) {
                elements.append("  {\"signedTransactionInfo\": \"\(try signer.sign(transaction))\"}")
            }
        }
        dataset.files.append(("exports/replay/replayed.json", Array(("[\n" + elements.joined(separator: ",\n") + "\n]\n").utf8)))

        // 6. Decoded payloads (rejected as unsigned_payload unless acceptUnsignedPayloads).
        var decodedLines: [String] = []
        if let subscription = simulated.first(where: { $0.renewalInfo != nil }), let transaction = subscription.transactions.last,
            let renewal = subscription.renewalInfo
        {
            decodedLines = [JSONText.render(transaction), JSONText.render(renewal)]
            dataset.expectedRejects += [
                .init(source: "exports/decoded/decoded.jsonl", line: 1, path: nil, code: "unsigned_payload"),
                .init(source: "exports/decoded/decoded.jsonl", line: 2, path: nil, code: "unsigned_payload"),
            ]
        }
        dataset.files.append(("exports/decoded/decoded.jsonl", Array((decodedLines.joined(separator: "\n") + "\n").utf8)))

        // 7. Bad records, one or more per reject kind.
        try appendBadRecords(to: &dataset, signer: signer, pki: pki, template: simulated.first?.transactions.first)
        return dataset
    }

    /// The signed NDJSON lines of one subscription: its transactions, and its notifications numbered `numbers`.
    private func lines(for subscription: SimulatedSubscription, notificationNumbers numbers: [Int], signer: Signer) throws -> (
        [String], [String]
    ) {
        var transactionLines: [String] = []
        for (index, transaction) in subscription.transactions.enumerated() {
            var pairs: [(String, JSONValue)] = [("signedTransactionInfo", .string(try signer.sign(transaction)))]
            if index == subscription.transactions.count - 1, let renewal = subscription.renewalInfo {
                pairs.append(("signedRenewalInfo", .string(try signer.sign(renewal))))
            }
            transactionLines.append(JSONText.render(JSONText.object(pairs)))
        }
        var notificationLines: [String] = []
        for (notification, number) in zip(subscription.notifications, numbers) {
            var data: [(String, JSONValue)] = [
                ("appAppleId", .integer(Self.appAppleId)), ("bundleId", .string(Self.bundleId)),
                ("bundleVersion", .string("4.2")), ("environment", .string(Self.environment)),
            ]
            if let transaction = notification.transaction { data.append(("signedTransactionInfo", .string(try signer.sign(transaction)))) }
            if let renewal = notification.renewalInfo ?? subscription.renewalInfo {
                data.append(("signedRenewalInfo", .string(try signer.sign(renewal))))
            }
            if let status = notification.status { data.append(("status", .integer(status))) }
            var payload: [(String, JSONValue)] = [("notificationType", .string(notification.notificationType))]
            let subtype = number == 3 ? "FUTURE_SUBTYPE_2027" : notification.subtype
            if let subtype { payload.append(("subtype", .string(subtype))) }
            payload += [
                ("notificationUUID", .string(deterministicUUID(number))), ("data", JSONText.object(data)),
                ("version", .string("2.0")), ("signedDate", .integer(notification.signedDate)),
            ]
            notificationLines.append(
                JSONText.render(JSONText.object([("signedPayload", .string(try signer.sign(JSONText.object(payload))))])))
        }
        return (transactionLines, notificationLines)
    }

    private func deterministicUUID(_ number: Int) -> String {
        var random = SeededRandom(seed: seed &+ UInt64(number) &* 7_919)
        return random.uuid()
    }

    private func appendBadRecords(to dataset: inout SampleDataset, signer: Signer, pki: TestPKI, template: JSONValue?) throws {
        let source = "exports/bad/injected.ndjson"
        var lines: [String] = []
        func add(_ line: String, code: String, path: String? = "signedTransactionInfo") {
            lines.append(line)
            dataset.expectedRejects.append(.init(source: source, line: lines.count, path: path, code: code))
        }
        func wrap(_ jws: String) -> String { JSONText.render(JSONText.object([("signedTransactionInfo", .string(jws))])) }
        func modified(_ changes: [(String, JSONValue?)]) -> JSONValue {
            var members = template?.objectMembers?.map { ($0.key, $0.value) } ?? []
            for (key, value) in changes {
                members.removeAll { $0.0 == key }
                if let value { members.append((key, value)) }
            }
            return JSONText.object(members)
        }
        let transaction = modified([("signedDate", .integer(Self.anchor - 86_400_000))])
        let x5c = JSONText.array(pki.x5c.map { .string($0) })

        add("this line is not JSON {", code: "malformed_json", path: nil)
        add(#"{"event": "purchase", "user": 42}"#, code: "unknown_shape", path: nil)
        add(#"{"signedTransactionInfo": 12345}"#, code: "malformed_jws")
        add(wrap("not-a-jws"), code: "malformed_jws")
        add(
            wrap(try signer.sign(transaction, header: JSONText.object([("alg", .string("ES384")), ("x5c", x5c)]))),
            code: "unsupported_algorithm")
        add(
            wrap(
                try signer.sign(
                    transaction,
                    header: JSONText.object([
                        ("alg", .string("ES256")), ("x5c", JSONText.array(Array(pki.x5c.prefix(2)).map { .string($0) })),
                    ]))), code: "invalid_chain_length")
        add(
            wrap(
                try signer.sign(
                    transaction,
                    header: JSONText.object([
                        ("alg", .string("ES256")),
                        ("x5c", JSONText.array([.string("not*base64"), .string(pki.x5c[1]), .string(pki.x5c[2])])),
                    ]))), code: "invalid_certificate")
        let foreign = try TestPKI.make(seed: seed, rootLabel: "foreign-root", leafLabel: "foreign-leaf")
        add(wrap(try Signer(pki: foreign).sign(transaction)), code: "untrusted_chain")
        let noOID = try TestPKI.make(
            seed: seed, leafLabel: "leaf-without-oid", leafHasOID: false, reuseRoot: pki.root, reuseIntermediate: pki.intermediate)
        add(wrap(try Signer(pki: noOID).sign(transaction)), code: "missing_apple_oid")
        let expired = try TestPKI.make(
            seed: seed, leafLabel: "leaf-expired", leafValidity: (TestPKI.date(2021, 1, 1), TestPKI.date(2022, 1, 1)), reuseRoot: pki.root,
            reuseIntermediate: pki.intermediate)
        add(wrap(try Signer(pki: expired).sign(transaction)), code: "certificate_expired")
        let genuine = try signer.sign(transaction).split(separator: ".")
        let tampered = try signer.sign(modified([("signedDate", .integer(Self.anchor - 86_400_000)), ("price", .integer(1))])).split(
            separator: ".")
        add(wrap([genuine[0], tampered[1], genuine[2]].joined(separator: ".")), code: "invalid_signature")
        add(wrap(try signer.sign(modified([("bundleId", .string("com.other.app"))]))), code: "invalid_app_identifier")
        add(wrap(try signer.sign(modified([("environment", .string("Sandbox"))]))), code: "invalid_environment")
        lines.append("")  // a blank line: not a record, still numbered
        add(wrap(try signer.sign(modified([("productId", nil)]))), code: "missing_field")
        add(wrap(try signer.sign(modified([("purchaseDate", .string("2026-01-01"))]))), code: "invalid_field")
        add(#"{"transactionId": "1", "originalTransactionId": "1"}"#, code: "unsigned_payload", path: nil)
        add("[1, 2, 3]", code: "unknown_shape", path: nil)
        let foreignNotification = JSONText.object([
            ("notificationType", .string("TEST")),
            (
                "data",
                JSONText.object([
                    ("appAppleId", .integer(Self.appAppleId)), ("bundleId", .string("com.other.app")),
                    ("environment", .string(Self.environment)),
                ])
            ),
            ("signedDate", .integer(Self.anchor - 7_200_000)),
        ])
        add(
            JSONText.render(JSONText.object([("signedPayload", .string(try signer.sign(foreignNotification)))])),
            code: "invalid_app_identifier", path: "signedPayload")
        dataset.files.append((source, Array((lines.joined(separator: "\n") + "\n").utf8)))

        let broken = "{\n  \"signedTransactions\": [\n    \"eyJhbGciOi\n"
        dataset.files.append(("exports/bad/broken.json", Array(broken.utf8)))
        dataset.expectedRejects.append(.init(source: "exports/bad/broken.json", line: 1, path: nil, code: "malformed_json"))
    }
}
