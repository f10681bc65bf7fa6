import Testing
import WinbackAnalytics
import WinbackAppStore
import WinbackCrypto
import WinbackIngest
import WinbackSampleData
import WinbackTestSupport

/// Records nested in a notification: a rejected one keeps the notification's whole input line as `record`
/// (docs/inputs.md: "the original line text"), and the notification itself is kept as an event of the
/// subscription its nested transaction belongs to (docs/notifications-and-commitments.md).
@Suite struct NestedRejectTests {
    /// A TEST-ONLY PKI and the first simulated transaction of a seed, with its `signedDate`.
    static func material(seed: UInt64) throws -> (pki: TestPKI, signer: JWSSigner, transaction: JSONValue, signedDate: Int64) {
        let pki = try TestPKI.make(seed: seed)
        var simulator = SubscriptionSimulator(sampleSeed: seed)
        let transaction = try #require(simulator.simulate(index: 0).transactions.first)
        guard case .integer(let signedDate)? = transaction["signedDate"] else { throw RecordFailure.missing("signedDate") }
        return (pki, JWSSigner(key: pki.leaf.key), transaction, signedDate)
    }

    /// An NDJSON line holding a signed notification of `type` / `subtype` that nests `nestedTransaction` (a JWS).
    static func notificationLine(
        type: String, subtype: String?, uuid: String, nestedTransaction: String, signedDate: Int64, pki: TestPKI, signer: JWSSigner
    ) throws -> String {
        var members: [(String, JSONValue)] = [("notificationType", .string(type))]
        if let subtype { members.append(("subtype", .string(subtype))) }
        members += [
            ("notificationUUID", .string(uuid)),
            (
                "data",
                JSONText.object([
                    ("bundleId", .string(SampleDataGenerator.bundleId)), ("appAppleId", .integer(SampleDataGenerator.appAppleId)),
                    ("environment", .string(SampleDataGenerator.environment)), ("signedTransactionInfo", .string(nestedTransaction)),
                ])
            ),
            ("version", .string("2.0")), ("signedDate", .integer(signedDate)),
        ]
        let jws = try signer.sign(header: pki.jwsHeader, payload: JSONText.object(members))
        return JSONText.render(JSONText.object([("signedPayload", .string(jws))]))
    }

    /// The outcomes of `line` as the ingest's workers produce them.
    static func outcomes(of line: String, pki: TestPKI) async -> [RecordOutcome] {
        let processor = RecordProcessor(verifier: pki.verifier(), acceptUnsignedPayloads: false)
        var outcomes: [RecordOutcome] = []
        for raw in RecordClassifier.classifyLine(Array(line.utf8), source: "n.ndjson", line: 1) {
            await processor.caches.withCache { await processor.process(raw, into: &outcomes, cache: $0) }
        }
        return outcomes
    }

    @Test func aNestedRejectKeepsTheWholeLine() async throws {
        let (pki, signer, transaction, signedDate) = try Self.material(seed: 5)
        // The nested transaction's signature is damaged; the notification around it is signed correctly.
        let nested = DamagedSignature.of(try signer.sign(header: pki.jwsHeader, payload: transaction))
        let line = try Self.notificationLine(
            type: "DID_RENEW", subtype: nil, uuid: "8a3e4c52-3f4e-4d2b-9f33-6f1d2e8b7c10", nestedTransaction: nested,
            signedDate: signedDate, pki: pki, signer: signer)
        let outcomes = await Self.outcomes(of: line, pki: pki)
        guard outcomes.count == 2, case .accepted = outcomes[0], case .rejected(let rejection) = outcomes[1] else {
            Issue.record("expected the notification accepted and its transaction rejected, found \(outcomes)")
            return
        }
        #expect(rejection.code == .invalidSignature)
        #expect(rejection.location.path == "data.signedTransactionInfo")
        #expect(rejection.record == line)
    }

    @Test func aNotificationIsAnEventOfItsNestedTransactionsSubscription() async throws {
        let (pki, signer, transaction, signedDate) = try Self.material(seed: 6)
        let line = try Self.notificationLine(
            type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", uuid: "0f8e3a52-3f4e-4d2b-9f33-6f1d2e8b7c11",
            nestedTransaction: try signer.sign(header: pki.jwsHeader, payload: transaction), signedDate: signedDate, pki: pki,
            signer: signer)
        let outcomes = await Self.outcomes(of: line, pki: pki)
        guard outcomes.count == 2, case .accepted(let record) = outcomes[0], case .notification(let event) = record.kept else {
            Issue.record("expected the notification kept as an event, found \(outcomes)")
            return
        }
        #expect(event.originalTransactionId == transaction["originalTransactionId"]?.stringValue)
        #expect(event.turnsAutoRenewOff && event.signedDate == signedDate)
    }
}
