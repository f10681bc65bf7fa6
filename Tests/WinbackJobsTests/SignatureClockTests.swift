import Testing
import WinbackAnalytics
import WinbackCrypto
import WinbackIngest
import WinbackSampleData
import WinbackTestSupport

/// The verifier's sampling clock (what `phase=ingest … signature_cpu_seconds=` reports): every check with
/// a cached header is counted, one in `SignatureClock.interval` is timed, and a failed signature is still
/// a check.
@Suite struct SignatureClockTests {
    @Test func countsEveryCheckAndTimesOneInInterval() async throws {
        let pki = try TestPKI.make(seed: 3)
        let signer = JWSSigner(key: pki.leaf.key)
        var simulator = SubscriptionSimulator(sampleSeed: 3)
        var records: [String] = []
        var index = 0
        while records.count < 2 * SignatureClock.interval + 1 {
            for payload in simulator.simulate(index: index).transactions {
                records.append(try signer.sign(header: pki.jwsHeader, payload: payload))
            }
            index += 1
        }
        records = Array(records.prefix(2 * SignatureClock.interval + 1))
        // A wrong signature is checked and counted too.
        records[5] = DamagedSignature.of(records[5])

        let verifier = pki.verifier()
        let scratch = VerifierScratch()
        var rejected = 0
        for record in records {
            do {
                _ = try await verifier.verify(RecordText(record), as: .transaction, scratch: scratch)
            } catch {
                rejected += 1
            }
        }
        #expect(rejected == 1)
        // Every record is a check; the first record's header is not cached yet, so its check is counted but
        // not on the sampled path (the timed ones are every interval-th cached one).
        #expect(scratch.clock.checks == records.count)
        #expect(scratch.clock.sampled == (records.count - 1) / SignatureClock.interval)
        #expect(scratch.clock.estimatedSeconds > 0)
        // An ES256 check takes tens of microseconds, not nanoseconds or seconds.
        let perCheck = scratch.clock.estimatedSeconds / Double(scratch.clock.checks)
        #expect(perCheck > 5e-6 && perCheck < 5e-3)

        let total = SignatureClock()
        total.add(scratch.clock)
        total.add(scratch.clock)
        #expect(total.checks == 2 * scratch.clock.checks && total.sampled == 2 * scratch.clock.sampled)
    }

    /// A run whose only record fails its signature still made one check (the phase line printed 0).
    @Test func aLoneFailedCheckIsCounted() async throws {
        let pki = try TestPKI.make(seed: 4)
        var simulator = SubscriptionSimulator(sampleSeed: 4)
        let payload = try #require(simulator.simulate(index: 0).transactions.first)
        let tampered = DamagedSignature.of(try JWSSigner(key: pki.leaf.key).sign(header: pki.jwsHeader, payload: payload))
        let verifier = pki.verifier()
        let scratch = VerifierScratch()
        await #expect(throws: RecordFailure.self) {
            _ = try await verifier.verify(RecordText(tampered), as: .transaction, scratch: scratch)
        }
        #expect(scratch.clock.checks == 1)
    }
}
