import Foundation
import WinbackCore
import WinbackCrypto
import WinbackIO
import WinbackIngest

/// Ingest → verify → deduplicate: the first half of every job.
public enum IngestStage {
    /// Runs the stage; `onReject` sees each rejection in input order. With a `store`, unchanged files are
    /// replayed from it and the others recorded in it (SPEC §14); `warn` hears of damaged entries.
    public static func run(
        _ loaded: LoadedConfig, isQuiet: Bool = false, store: VerifiedStore? = nil, warn: @escaping @Sendable (String) -> Void = { _ in },
        onReject: (Rejection) throws -> Void
    ) async throws -> IngestResult {
        let (files, warnings) = try InputDiscovery.discover(loaded)
        let chains = ChainValidator(roots: loaded.roots)
        let verifier = SignedPayloadVerifier(chains: chains, decoder: PayloadDecoder(app: loaded.config.app))
        let compactor = PayloadCompactor()
        let processor = RecordProcessor(
            verifier: verifier, acceptUnsignedPayloads: loaded.config.acceptUnsignedPayloads, compactor: compactor)
        var pipeline = IngestPipeline(processor: processor, files: files, maximumLineBytes: loaded.config.report.maxLineBytes)
        pipeline.store = store
        pipeline.warn = warn
        var counts = IngestCounts()
        var deduplicator = Deduplicator(compactor: compactor)
        let progress = PhaseProgress(phase: "ingest", isQuiet: isQuiet)
        let (inputs, filesFromStore) = try await pipeline.run(progress: progress) { outcome in
            switch outcome {
            case .accepted(let record):
                counts.countAccepted(record)
                deduplicator.add(record.kept)
            case .rejected(let rejection):
                counts.countRejected(rejection)
                try onReject(rejection)
            }
        }
        // The CPU the signature checks took where they ran, estimated from a sample (SignatureClock), so the
        // CPU beyond them can be read off a run whatever the machine's speed that day.
        let signatures = processor.caches.signatureClock()
        progress.finish(
            detail: String(format: "signature_cpu_seconds=%.2f signature_checks=%d", signatures.estimatedSeconds, signatures.checks)
                + " inflater=\(GzipReader.Engine.preferred.rawValue)")
        counts.duplicates = deduplicator.duplicates
        for input in inputs where counts.recordsBySource[input.path] == nil { counts.recordsBySource[input.path] = 0 }
        return IngestResult(
            counts: counts, deduplicated: deduplicator, inputs: inputs, inputWarnings: warnings,
            chainValidations: chains.validations, filesFromStore: filesFromStore)
    }
}
