import Crypto
import Foundation
import Synchronization
import WinbackAnalytics
import WinbackAppStore
import WinbackCrypto
import WinbackIO
import WinbackIngest
import WinbackJobs
import WinbackSampleData

/// `winback bench --verify N`: verification + decoding of N signed transactions held in memory (no file,
/// gzip or line splitting), on all cores as the ingest pipeline spreads it, and on one core. The records
/// are simulated subscriptions signed with the TEST-ONLY PKI, each with the real 3-certificate x5c header.
///
/// On one core it also times the signature check alone on the same records (SHA-256 of the signing input,
/// continued from the header's cached state as the verifier does, + ECDSA with the cached leaf key) and the general decoder (no ``FastPayloadDecoder``), so the output says
/// how much CPU a record costs beyond its signature.
public enum VerifyBenchmark {
    /// Verifies `target` signed transactions in memory on one core and on all; returns a JSON line.
    public static func run(records target: Int, seed: UInt64) async throws -> String {
        let pki = try TestPKI.make(seed: seed)
        let header = pki.jwsHeader
        let signer = JWSSigner(key: pki.leaf.key)
        var simulator = SubscriptionSimulator(sampleSeed: seed)
        var records: [String] = []
        records.reserveCapacity(target)
        var index = 0
        while records.count < target {
            for payload in simulator.simulate(index: index).transactions where records.count < target {
                records.append(try signer.sign(header: header, payload: payload))
            }
            index += 1
        }
        let verifier = pki.verifier()
        _ = try? await verifier.verify(records[0], as: .transaction)  // the one chain validation, outside the timing
        let compactor = PayloadCompactor()
        let processor = RecordProcessor(verifier: verifier, acceptUnsignedPayloads: false, compactor: compactor)
        let texts = records.map { RecordText(bytes: Array($0.utf8)) }

        /// Each worker with its own cache, as the ingest's workers (``WorkerCache``); `fast: false` is the
        /// general decoder (no worker cache: the shared header cache and the Apple model).
        func verifyAll(workers: Int, fast useFast: Bool) async -> (seconds: Double, accepted: Int, clock: SignatureClock) {
            let start = DispatchTime.now().uptimeNanoseconds
            let chunk = (records.count + workers - 1) / workers
            let clock = SignatureClock()
            let counts = await withTaskGroup(of: (Int, WorkerCache?).self) { group in
                for worker in 0..<workers {
                    let slice = texts[min(texts.count, worker * chunk)..<min(texts.count, (worker + 1) * chunk)]
                    group.addTask {
                        var accepted = 0
                        let cache = useFast ? WorkerCache(app: verifier.decoder.app, compactor: compactor) : nil
                        for record in slice {
                            if let cache {
                                if let verified = try? await processor.verify(record, as: .transaction, cache: cache),
                                    verified.kept != .ignored
                                {
                                    accepted += 1
                                }
                            } else if let (payload, _) = try? await verifier.verify(record, as: .transaction),
                                compactor.keep(payload) != .ignored
                            {
                                accepted += 1
                            }
                        }
                        return (accepted, cache)
                    }
                }
                var accepted = 0
                for await (count, cache) in group {
                    accepted += count
                    if let cache { clock.add(cache.scratch.clock) }
                }
                return accepted
            }
            return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, counts, clock)
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let general = await verifyAll(workers: 1, fast: false)
        let one = await verifyAll(workers: 1, fast: true)
        let all = await verifyAll(workers: cores, fast: true)
        guard general.accepted == records.count, one.accepted == records.count, all.accepted == records.count else {
            throw JobError.internalError("verify benchmark: \(one.accepted) and \(all.accepted) of \(records.count) records verified")
        }
        let signatures = try SignatureInputs(records)
        let signatureSeconds = try signatures.secondsOnOneCore(key: pki.leaf.key.publicKey)
        let signatureCPUAllCores = try signatures.cpuSecondsOnAllCores(key: pki.leaf.key.publicKey, workers: cores)
        func microseconds(_ seconds: Double) -> JSONValue { .double((seconds / Double(records.count) * 1e7).rounded() / 10) }
        let bytes = records.reduce(0) { $0 + $1.utf8.count }
        return JSONText.render(
            JSONText.object([
                ("benchmark", .string("verify")), ("records", .integer(Int64(records.count))),
                ("averageRecordBytes", .integer(Int64(bytes / records.count))),
                ("recordsPerSecondOneCore", .integer(Int64(Double(records.count) / one.seconds))),
                ("microsecondsPerRecordOneCore", microseconds(one.seconds)),
                ("signatureMicrosecondsPerRecord", microseconds(signatureSeconds)),
                ("beyondSignatureMicrosecondsPerRecord", microseconds(one.seconds - signatureSeconds)),
                ("signatureCPUMicrosecondsPerRecordAllCores", microseconds(signatureCPUAllCores)),
                // The same check as the verifier's sampling clock saw it inside the one-core run (SignatureClock).
                ("sampledSignatureMicrosecondsPerRecordOneCore", microseconds(one.clock.estimatedSeconds)),
                ("generalDecoderMicrosecondsPerRecordOneCore", microseconds(general.seconds)),
                ("cores", .integer(Int64(cores))), ("recordsPerSecondAllCores", .integer(Int64(Double(records.count) / all.seconds))),
                ("chainValidations", .integer(Int64(verifier.chains.validations))),
            ]))
    }

    /// The signature checks alone, done as the verifier does them: SHA-256 of each record's signing input,
    /// continued from the state after its (shared) header segment, and ECDSA with the leaf key (the
    /// signatures are decoded and the header states computed before any timing starts).
    private struct SignatureInputs {
        var inputs: [(prefix: SHA256, payload: [UInt8], signature: P256.Signing.ECDSASignature)]

        init(_ records: [String]) throws {
            var prefixes: [[UInt8]: SHA256] = [:]
            inputs = try records.map { record in
                let utf8 = Array(record.utf8)
                guard let headerEnd = utf8.firstIndex(of: UInt8(ascii: ".")), let dot = utf8.lastIndex(of: UInt8(ascii: ".")),
                    let raw = Base64.decodeURL(bytes: utf8[(dot + 1)...]),
                    let signature = try? P256.Signing.ECDSASignature(rawRepresentation: raw)
                else { throw JobError.internalError("verify benchmark: a record without a signature") }
                let header = Array(utf8[...headerEnd])
                let prefix =
                    prefixes[header]
                    ?? {
                        var hasher = SHA256()
                        hasher.update(data: header)
                        prefixes[header] = hasher
                        return hasher
                    }()
                return (prefix: prefix, payload: Array(utf8[(headerEnd + 1)..<dot]), signature: signature)
            }
        }

        /// Wall seconds for every check on the calling thread.
        func secondsOnOneCore(key: P256.Signing.PublicKey) throws -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            let valid = Self.check(inputs[...], key: key)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            guard valid == inputs.count else { throw JobError.internalError("verify benchmark: \(valid) signatures valid") }
            return seconds
        }

        /// CPU seconds (user + system, as `winback run` is measured) for every check, split over `workers`
        /// threads running at once: what a check costs while the other cores are busy too, as in a run.
        func cpuSecondsOnAllCores(key: P256.Signing.PublicKey, workers: Int) throws -> Double {
            let chunk = (inputs.count + workers - 1) / workers
            let valid = Mutex(0)
            let start = PhaseProgress.processCPUSeconds()
            // Threads of their own rather than tasks: the benchmark times the bare check on `workers` cores.
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let slice = inputs[min(inputs.count, worker * chunk)..<min(inputs.count, (worker + 1) * chunk)]
                let count = Self.check(slice, key: key)
                valid.withLock { $0 += count }
            }
            let seconds = PhaseProgress.processCPUSeconds() - start
            guard valid.withLock({ $0 }) == inputs.count else {
                throw JobError.internalError("verify benchmark: signatures failed on all cores")
            }
            return seconds
        }

        /// The number of valid signatures in `slice`.
        private static func check(
            _ slice: ArraySlice<(prefix: SHA256, payload: [UInt8], signature: P256.Signing.ECDSASignature)>, key: P256.Signing.PublicKey
        ) -> Int {
            var valid = 0
            for (prefix, payload, signature) in slice {
                var hasher = prefix
                hasher.update(data: payload)
                if key.isValidSignature(signature, for: hasher.finalize()) { valid += 1 }
            }
            return valid
        }
    }
}
