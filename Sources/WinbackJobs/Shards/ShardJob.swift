import Crypto
import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackCrypto
import WinbackIO
import WinbackIngest
import WinbackOutlook

/// `winback run --shard i/N --partial DIR` (docs/sharding.md): reads every input, verifies only the shard's
/// records, builds the model of the subscriptions it owns (every record of a subscription is in its owner's
/// shard) and writes what the merge combines (``PartialManifest``): the subscriptions' rows in key order, its
/// rejects in input order, the additive counters of every table, the campaign candidates and the measures of
/// the campaign-outcome cohorts' members. It publishes nothing and writes no ledger (it reads the cohorts from
/// it, when there is one). With the verified store, the shard's entries live in `<store>/shard-<i>-of-<N>/`
/// (keyed by `i/N`, so they never serve another sharding).
public enum ShardJob {
    /// Runs shard `shard`; returns the summary line.
    public static func run(_ options: RunOptions, shard: ShardSpec) async throws -> String {
        guard let partialOption = options.partialDirectory else {
            throw JobError.usage("--shard: needs --partial DIR (where the partial goes)")
        }
        let loaded = try LoadedConfig.load(path: options.configPath)
        let calendar = try JobDay.calendar(config: loaded.config, asOf: options.asOf, now: options.now())
        var warnings: [String] = []
        let campaigns: [Campaign]
        do {
            campaigns = try CampaignParser.parse(loaded.config.campaigns, warnings: &warnings)  // fail fast, as the merge would
        } catch {
            throw JobError.config(file: loaded.path, error)
        }
        let money = try loaded.moneyContext(calendar: calendar)
        let partial = FileSystem.resolve(partialOption, against: FileManager.default.currentDirectoryPath)
        try preparePartialDirectory(partial)

        let ledgerPath = loaded.ledgerPath(override: options.ledgerOverride)
        let store =
            options.usesStore
            ? try VerifiedStore(
                directory: loaded.storeDirectory(ledgerPath: ledgerPath) + "/shard-\(shard.index)-of-\(shard.count)",
                verifierDigest: VerifiedStore.verifierDigest(loaded.ingestSettings, shard: shard), isKeyed: true) : nil
        let isQuiet = options.isQuiet
        let (discovered, inputWarnings) = try InputDiscovery.discover(loaded)
        var files: [String: PartialManifest.FileDigest] = [:]
        let fileIndexes = Dictionary(discovered.enumerated().map { ($1.relativePath, $0) }, uniquingKeysWith: { first, _ in first })
        let rejects = try PartialRecordWriter(directory: partial, name: PartialManifest.rejectsFile)
        var result = try await IngestStage.run(
            loaded.ingestSettings, files: discovered, inputWarnings: inputWarnings, isQuiet: isQuiet, store: store, shard: shard,
            warn: { JobDay.warn("warning: \($0)", isQuiet: isQuiet) }
        ) { rejection, order in
            try rejects.append([
                Array(String(fileIndexes[rejection.location.source] ?? 0).utf8), Array(String(order.line).utf8),
                Array(String(order.index).utf8), Array(rejection.jsonLine.utf8), Array(rejection.diagnostic.utf8),
            ])
        }
        files[PartialManifest.rejectsFile] = digest(try rejects.finish())
        let counts = result.counts

        MemoryRelease.trim()
        let phase = PhaseProgress(phase: "model", isQuiet: isQuiet)
        let model = RunJob.model(taking: &result.deduplicated, calendar: calendar, gracePeriodDays: loaded.config.report.gracePeriodDays)
        MemoryRelease.trim()  // the store's groups and renewal infos are gone now
        phase.advance(by: model.timelines.count)
        phase.finish()
        let reports = PhaseProgress(phase: "reports", isQuiet: isQuiet)
        async let tallies = ReportTallies.make(model, calendar: calendar, context: money)
        let subscriptions = try PartialRecordWriter(directory: partial, name: PartialManifest.subscriptionsFile)
        for timeline in model.timelines {
            try subscriptions.append([Array(timeline.originalTransactionId.utf8), EncodedRow(SubscriptionsReport.Row(timeline)).bytes])
        }
        files[PartialManifest.subscriptionsFile] = digest(try subscriptions.finish())

        let events = try PartialRecordWriter(directory: partial, name: PartialManifest.eventsFile)
        for event in LifecycleEventsFile.events(model.timelines, calendar: calendar) {
            try events.append(LifecycleEventsFile.partialFields(event))
        }
        files[PartialManifest.eventsFile] = digest(try events.finish())

        let refunds = try PartialRecordWriter(directory: partial, name: PartialManifest.refundsFile)
        for request in RefundRequests.collect(model, money: money) {
            try refunds.append([Array(request.notificationUUID.utf8), Array(JSONText.render(request.json).utf8)])
        }
        files[PartialManifest.refundsFile] = digest(try refunds.finish())

        let outlook = try PartialRecordWriter(directory: partial, name: PartialManifest.outlookFile)
        let outlookPart = try RenewalOutlook.part(model, graceDays: loaded.config.report.gracePeriodDays) { facts in
            try outlook.append([Array(facts.originalTransactionId.utf8), Array(JSONText.render(facts.json).utf8)])
        }
        files[PartialManifest.outlookFile] = digest(try outlook.finish())

        let selector = CampaignSelector(holdoutBucket: HoldoutHash.bucket)
        let candidates = try PartialRecordWriter(directory: partial, name: PartialManifest.candidatesFile)
        for campaign in campaigns.sorted(by: { CodePointOrder.less($0.id, $1.id) }) {
            for account in selector.candidates(campaign, timelines: model.timelines, asOf: calendar.asOf) {
                try candidates.append(CandidateRecord.fields(account))
            }
        }
        files[PartialManifest.candidatesFile] = digest(try candidates.finish())

        let cohorts = campaigns.isEmpty ? [] : try OutcomeCohorts.read(ledgerPath: ledgerPath, calendar: calendar)
        let members = OutcomeCohorts.memberTally(cohorts, timelines: model.timelines, asOf: calendar.asOf, money: money)
        let talliesFile = try PartialRecordWriter(directory: partial, name: PartialManifest.talliesFile)
        try talliesFile.append([
            Array(JSONText.render((await tallies).json).utf8), Array(JSONText.render(members.json).utf8),
            Array(JSONText.render(outlookPart.json).utf8),
        ])
        files[PartialManifest.talliesFile] = digest(try talliesFile.finish())
        reports.advance(by: model.timelines.count)
        reports.finish()

        let manifest = PartialManifest(
            shard: shard, asOf: calendar.asOfLabel, configSha256: HexDigest.string(SHA256.hash(data: loaded.bytes)),
            winbackVersion: WinbackVersion.current, inputs: result.inputs, inputWarnings: result.inputWarnings, counts: counts,
            filesFromStore: result.filesFromStore, outcomeCohortsSha256: OutcomeCohorts.digest(cohorts), files: files)
        try FileSystem.writeAtomically(Array(manifest.rendered().utf8), to: partial + "/" + PartialManifest.fileName)
        store?.prune()
        if options.exitsAfterRun { ExitReclaim.keep(model) }
        // The shard's own records and subscriptions; its campaigns are the merge's.
        RunMetrics.emit(counts: counts, subscriptions: model.timelines.count, campaigns: [])
        return JSONText.render(
            JSONText.object([
                ("command", .string("run")), ("shard", .string(shard.description)), ("asOf", .string(calendar.asOfLabel)),
                ("partial", .string(partial)),
                ("records", counts.summaryJSON(extra: [("future", model.future), ("otherProductTypes", model.otherProductTypes)])),
                ("subscriptions", .integer(Int64(model.timelines.count))), ("filesFromStore", .integer(Int64(result.filesFromStore))),
                ("exitCode", .integer(0)),
            ]))
    }

    /// What `partial.json` records of a written record file.
    private static func digest(_ stats: OutputStats) -> PartialManifest.FileDigest {
        PartialManifest.FileDigest(bytes: stats.bytes, sha256: stats.sha256, records: stats.rows)
    }

    /// Creates `partial`, removing a previous partial there (`partial.json` before anything else, so an
    /// interrupted shard never leaves a partial that looks finished; then the record files and a format-1
    /// partial's `entries/`).
    private static func preparePartialDirectory(_ partial: String) throws(JobError) {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: partial, withIntermediateDirectories: true)
            for name in [PartialManifest.fileName] + PartialManifest.recordFiles + ["entries"] {
                let path = partial + "/" + name
                if manager.fileExists(atPath: path) { try manager.removeItem(atPath: path) }
            }
        } catch {
            throw .io(IOError(path: partial, reason: "cannot prepare the partial directory (\(error.localizedDescription))"))
        }
    }
}
