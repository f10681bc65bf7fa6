import Testing
import WinbackCore
import WinbackCrypto
import WinbackIngest

@testable import WinbackJobs

/// A rejected record nested in a notification keeps the notification's whole input line as `record`
/// (SPEC §4: "the original line text"), so the reject replays as it was read.
@Suite struct NestedRejectTests {
    @Test func aNestedRejectKeepsTheWholeLine() async throws {
        let pki = try TestPKI.make(seed: 5)
        let signer = JWSSigner(key: pki.leaf.key)
        var simulator = SubscriptionSimulator(
            seed: 5, bundleId: SampleDataGenerator.bundleId, environment: SampleDataGenerator.environment,
            appAppleId: SampleDataGenerator.appAppleId, anchor: SampleDataGenerator.anchor)
        let transaction = try #require(simulator.simulate(index: 0).transactions.first)
        guard case .integer(let signedDate)? = transaction["signedDate"] else {
            Issue.record("the simulated transaction has no signedDate")
            return
        }
        // The nested transaction's signature is damaged; the notification around it is signed correctly.
        var nested = Array(try signer.sign(header: pki.jwsHeader, payload: transaction).utf8)
        let position = nested.count - 10
        nested[position] = nested[position] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let notification = JSONText.object([
            ("notificationType", .string("DID_RENEW")), ("notificationUUID", .string("8a3e4c52-3f4e-4d2b-9f33-6f1d2e8b7c10")),
            (
                "data",
                JSONText.object([
                    ("bundleId", .string(SampleDataGenerator.bundleId)), ("appAppleId", .integer(SampleDataGenerator.appAppleId)),
                    ("environment", .string(SampleDataGenerator.environment)),
                    ("signedTransactionInfo", .string(String(decoding: nested, as: UTF8.self))),
                ])
            ),
            ("version", .string("2.0")), ("signedDate", .integer(signedDate)),
        ])
        let line = JSONText.render(
            JSONText.object([("signedPayload", .string(try signer.sign(header: pki.jwsHeader, payload: notification)))]))

        let processor = RecordProcessor(
            verifier: SignedPayloadVerifier(
                chains: ChainValidator(roots: [pki.root.certificate]),
                decoder: PayloadDecoder(
                    app: AppIdentity(
                        bundleId: SampleDataGenerator.bundleId, appAppleId: SampleDataGenerator.appAppleId,
                        environment: SampleDataGenerator.environment))),
            acceptUnsignedPayloads: false)
        let raws = RecordClassifier.classifyLine(Array(line.utf8), source: "n.ndjson", line: 1)
        var outcomes: [RecordOutcome] = []
        for raw in raws { await processor.caches.withCache { await processor.process(raw, into: &outcomes, cache: $0) } }
        #expect(outcomes.count == 2)
        guard outcomes.count == 2, case .accepted = outcomes[0], case .rejected(let rejection) = outcomes[1] else {
            Issue.record("expected the notification accepted and its transaction rejected, found \(outcomes)")
            return
        }
        #expect(rejection.code == .invalidSignature)
        #expect(rejection.location.path == "data.signedTransactionInfo")
        #expect(rejection.record == line)
    }
}
