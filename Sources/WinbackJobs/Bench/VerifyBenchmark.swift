import Foundation
import WinbackCore
import WinbackCrypto

/// `winback bench --verify N`: verification + decoding of N signed transactions held in memory (no file,
/// gzip or line splitting), on all cores as the ingest pipeline spreads it, and on one core. The records
/// are simulated subscriptions signed with the TEST-ONLY PKI, each with the real 3-certificate x5c header.
public enum VerifyBenchmark {
    public static func run(records target: Int, seed: UInt64) async throws -> String {
        let pki = try TestPKI.make(seed: seed)
        let header = pki.jwsHeader
        let signer = JWSSigner(key: pki.leaf.key)
        var simulator = SubscriptionSimulator(
            seed: seed, bundleId: SampleDataGenerator.bundleId, environment: SampleDataGenerator.environment,
            appAppleId: SampleDataGenerator.appAppleId, anchor: SampleDataGenerator.anchor)
        var records: [String] = []
        records.reserveCapacity(target)
        var index = 0
        while records.count < target {
            for payload in simulator.simulate(index: index).transactions where records.count < target {
                records.append(try signer.sign(header: header, payload: payload))
            }
            index += 1
        }
        let verifier = SignedPayloadVerifier(
            chains: ChainValidator(roots: [pki.root.certificate]),
            decoder: PayloadDecoder(
                app: AppIdentity(
                    bundleId: SampleDataGenerator.bundleId, appAppleId: SampleDataGenerator.appAppleId, environment: SampleDataGenerator.environment)))
        _ = try? await verifier.verify(records[0], as: .transaction)  // the one chain validation, outside the timing

        func verifyAll(workers: Int) async -> (seconds: Double, accepted: Int) {
            let start = DispatchTime.now().uptimeNanoseconds
            let chunk = (records.count + workers - 1) / workers
            let accepted = await withTaskGroup(of: Int.self) { group in
                for worker in 0..<workers {
                    let slice = records[min(records.count, worker * chunk)..<min(records.count, (worker + 1) * chunk)]
                    group.addTask {
                        var accepted = 0
                        for record in slice where (try? await verifier.verify(record, as: .transaction)) != nil { accepted += 1 }
                        return accepted
                    }
                }
                return await group.reduce(0, +)
            }
            return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, accepted)
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let one = await verifyAll(workers: 1)
        let all = await verifyAll(workers: cores)
        guard one.accepted == records.count, all.accepted == records.count else {
            throw JobError.internalError("verify benchmark: \(one.accepted) and \(all.accepted) of \(records.count) records verified")
        }
        let bytes = records.reduce(0) { $0 + $1.utf8.count }
        return JSONText.render(JSONText.object([
            ("benchmark", .string("verify")), ("records", .integer(Int64(records.count))),
            ("averageRecordBytes", .integer(Int64(bytes / records.count))),
            ("recordsPerSecondOneCore", .integer(Int64(Double(records.count) / one.seconds))),
            ("microsecondsPerRecordOneCore", .double((one.seconds / Double(records.count) * 1e7).rounded() / 10)),
            ("cores", .integer(Int64(cores))), ("recordsPerSecondAllCores", .integer(Int64(Double(records.count) / all.seconds))),
            ("chainValidations", .integer(Int64(verifier.chains.validations))),
        ]))
    }
}
