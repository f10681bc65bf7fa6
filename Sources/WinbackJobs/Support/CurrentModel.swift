import Foundation
import WinbackAnalytics
import WinbackIO
import WinbackIngest

/// The model of everything the config's inputs hold, for a job that decides on it between nightly runs
/// (`winback refunds`, docs/refunds.md): ingested as `winback run` ingests (the verified store replays files
/// it has verified; files pushed by Apple included), rejects counted but not written, no reports.
package enum CurrentModel {
    /// The model as of `calendar` (its `T`), with the ingest's counts. `usesStore` false verifies every file again.
    package static func build(
        _ loaded: LoadedConfig, calendar: ReportCalendar, ledgerPath: String, usesStore: Bool, isQuiet: Bool
    ) async throws -> (model: SubscriptionModel, counts: IngestCounts) {
        let (files, inputWarnings) = try InputDiscovery.discover(loaded)
        for message in inputWarnings { JobDay.warn("warning: \(message)", isQuiet: isQuiet) }
        let store =
            usesStore
            ? try VerifiedStore(
                directory: loaded.storeDirectory(ledgerPath: ledgerPath),
                verifierDigest: VerifiedStore.verifierDigest(loaded.ingestSettings))
            : nil
        var result = try await IngestStage.run(
            loaded.ingestSettings, files: files, inputWarnings: inputWarnings, isQuiet: isQuiet, store: store,
            warn: { JobDay.warn("warning: \($0)", isQuiet: isQuiet) }, onReject: { _, _ in })
        let model = RunJob.model(
            taking: &result.deduplicated, calendar: calendar, gracePeriodDays: loaded.config.report.gracePeriodDays)
        return (model, result.counts)
    }
}
