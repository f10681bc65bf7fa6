import Foundation
import WinbackAnalytics
import WinbackCrypto
import WinbackIO

/// Ingest → verify → deduplicate: the first half of every job, and the one entry point of the ingest.
public enum IngestStage {
    /// Reads `files` (in order) with `settings`; `onReject` sees each rejection in input order, with its place
    /// in its file (``RecordOrder``: the index on the line is 0 but in a sharded run). With a `store`,
    /// unchanged files are replayed from it and the others recorded in it (docs/verified-store.md); `warn`
    /// hears of damaged entries. With a `shard`, only that shard's records are verified (docs/sharding.md; the
    /// store must then be the shard's, keyed). Throws ``IOError`` for an unreadable file, or what `onReject` threw.
    public static func run(
        _ settings: IngestSettings, files: [InputFile], inputWarnings: [String] = [], isQuiet: Bool = false,
        store: VerifiedStore? = nil, shard: ShardSpec? = nil, warn: @escaping @Sendable (String) -> Void = { _ in },
        onReject: (Rejection, RecordOrder) throws -> Void
    ) async throws -> IngestResult {
        let chains = ChainValidator(roots: settings.roots)
        let verifier = SignedPayloadVerifier(chains: chains, decoder: PayloadDecoder(app: settings.app))
        let compactor = PayloadCompactor()
        let processor = RecordProcessor(verifier: verifier, acceptUnsignedPayloads: settings.acceptUnsignedPayloads, compactor: compactor)
        var pipeline = IngestPipeline(processor: processor, files: files, maximumLineBytes: settings.maximumLineBytes)
        pipeline.store = store
        pipeline.warn = warn
        pipeline.shard = shard
        var accumulator = IngestAccumulator(compactor: compactor)
        let progress = PhaseProgress(phase: "ingest", isQuiet: isQuiet)
        let (inputs, filesFromStore) = try await pipeline.run(progress: progress) { outcome, index in
            try accumulator.add(outcome) { try onReject($0, RecordOrder(line: $0.location.line, index: index)) }
        }
        // The CPU the signature checks took where they ran, estimated from a sample (SignatureClock), so the
        // CPU beyond them can be read off a run whatever the machine's speed that day.
        let signatures = processor.caches.signatureClock()
        progress.finish(
            detail: String(format: "signature_cpu_seconds=%.2f signature_checks=%d", signatures.estimatedSeconds, signatures.checks)
                + " inflater=\(GzipReader.Engine.preferred.rawValue)")
        return accumulator.result(
            inputs: inputs, inputWarnings: inputWarnings, chainValidations: chains.validations, filesFromStore: filesFromStore)
    }
}
