import Crypto
import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackCrypto
import WinbackIO
import WinbackIngest
import WinbackOutlook

/// `winback run`: ingest → model → reports → campaigns → publish into `<output>/dt=<D>/`, ending with a
/// one-line JSON summary (README: Commands). Each stage is one function below, in that order.
public enum RunJob {
    /// How a run ended: its exit code, the summary line for stdout and the published directory.
    public struct Outcome: Sendable, CommandSummary {
        /// 0, or 65 when the reject rate exceeded `report.maxRejectRate`.
        public var exitCode: Int32
        /// The summary for stdout.
        public var summary: JSONValue
        /// The published `dt=<D>` directory.
        public var publishedPath: String
    }

    /// Runs the job: the stages in order, each writing its files into the context's temporary directory.
    public static func run(_ options: RunOptions) async throws -> Outcome {
        let context = try RunContext.prepare(options)
        defer { withExtendedLifetime(context.lock) {} }
        return try await finish(try await ingest(context), context)
    }

    /// The stages after the ingest: model, reports, campaigns, publish. `winback merge` (``MergeJob``) shares
    /// the reports' tables, the campaigns and publishing, built from the shards' partials instead of a model,
    /// so both publish the same day.
    /// `ingested` is consumed: the model takes the deduplicated payloads out of it, and a second reference
    /// to them would make that a copy of the whole store.
    static func finish(_ ingested: consuming Ingested, _ context: RunContext) async throws -> Outcome {
        let model = buildModel(from: &ingested.result, context)
        var reports = try await writeReports(model, context, into: &ingested.outputs)
        let events = LifecycleEventsFile.events(model.timelines, calendar: context.calendar)
        ingested.outputs.append(
            try LifecycleEventsFile.write(events.lazy.map { $0.line(id: LifecycleEventsFile.id($0)) }, directory: context.temporary))
        let outlook = try await RenewalOutlookTable.write(model, context, into: &ingested.outputs)
        reports.renewalOutlook = outlook.summary
        let selector = CampaignSelector(holdoutBucket: HoldoutHash.bucket)
        let asOf = context.calendar.asOf
        let isSigning = !ingested.isOverThreshold
        let candidates = { (campaign: Campaign) in
            selector.candidates(campaign, timelines: model.timelines, asOf: asOf).filter { outlook.admits($0, campaign) }
        }
        let campaigns = try await besideSubscriptionsParquet(model.timelines, context, outputs: &ingested.outputs) { outputs in
            try runCampaigns(candidates, context, isSigning: isSigning, into: &outputs)
        }
        let outcome = try publish(ingested, reports: reports, campaigns: campaigns, context)
        if context.options.exitsAfterRun { ExitReclaim.keep(model) }
        return outcome
    }

    // MARK: Stages

    /// What the ingest stage leaves for the others.
    struct Ingested {
        var result: IngestResult
        /// Files written so far (`rejects.ndjson.gz`, then each stage's).
        var outputs: [OutputStats]
        /// The reject rate exceeded `report.maxRejectRate`: reports are published, offers are not signed.
        var isOverThreshold: Bool
        var freshness: DataFreshness
    }

    /// Ingest: read, verify and deduplicate every input, streaming rejects into `rejects.ndjson.gz`.
    static func ingest(_ context: RunContext) async throws -> Ingested {
        let rejects = try ReportFileWriter(directory: context.temporary, schema: ReportSchema.rejects, isCSV: false)
        // The closure captures only what it reads: the ingest's consumer it is inlined into copied its
        // captures for every outcome, and with the whole options that was a dozen retains per record.
        let isVerbose = context.options.isVerbose
        let result = try await ingest(context) { rejection in
            try rejects.write(line: rejection.jsonLine + "\n")
            if isVerbose { Diagnostics.logger.debug("\(rejection.diagnostic)") }
        }
        return ingested(result, rejects: try rejects.finish(), context)
    }

    /// What an ingest (a run's, or the shards' combined by `winback merge`) leaves for the other stages: its input
    /// warnings and the data's freshness said, the reject rate checked.
    static func ingested(_ result: IngestResult, rejects: OutputStats, _ context: RunContext) -> Ingested {
        for message in result.inputWarnings { context.warn("warning: \(message)") }
        let counts = result.counts
        let report = context.config.report
        let freshness = DataFreshness(
            newestSignedDate: counts.newestSignedDate, calendar: context.calendar, maxLagDays: report.maxDataLagDays)
        if freshness.isStale { context.warn(freshness.warning(asOf: context.calendar.asOfLabel)) }
        return Ingested(result: result, outputs: [rejects], isOverThreshold: counts.rejectRate > report.maxRejectRate, freshness: freshness)
    }

    /// The config's inputs verified (or replayed from the verified store), deduplicated.
    private static func ingest(_ context: RunContext, onReject: (Rejection) throws -> Void) async throws -> IngestResult {
        let isQuiet = context.options.isQuiet
        let (files, inputWarnings) = try InputDiscovery.discover(context.loaded)
        return try await IngestStage.run(
            context.loaded.ingestSettings, files: files, inputWarnings: inputWarnings, isQuiet: isQuiet, store: context.store,
            warn: { JobDay.warn("warning: \($0)", isQuiet: isQuiet) }, onReject: { rejection, _ in try onReject(rejection) })
    }

    /// Model: every subscription's timeline, built from the deduplicated store, which it empties:
    /// transactions move into the timelines group by group and the renewal infos are freed on return.
    static func buildModel(from result: inout IngestResult, _ context: RunContext) -> SubscriptionModel {
        MemoryRelease.trim()
        let phase = PhaseProgress(phase: "model", isQuiet: context.options.isQuiet)
        let model = model(taking: &result.deduplicated, calendar: context.calendar, gracePeriodDays: context.config.report.gracePeriodDays)
        // The store's groups and renewal infos are gone now; give their pages back before the reports.
        MemoryRelease.trim()
        phase.advance(by: model.timelines.count)
        phase.finish()
        return model
    }

    /// Builds the model from the deduplicated store, emptying it.
    static func model(taking store: inout Deduplicator, calendar: ReportCalendar, gracePeriodDays: Int) -> SubscriptionModel {
        let renewals = store.takeRenewalInfos()
        var model = SubscriptionModel(
            subscriptions: store.takeSubscriptions(), renewals: renewals, asOf: calendar.asOf, gracePeriodDays: gracePeriodDays)
        model.attach(store.takeNotificationEvents())
        return model
    }

    /// Reports: `subscriptions.csv.gz` on this core while the tallies compute on the others, then the
    /// aggregate tables (`subscriptions.parquet` is written later: ``besideSubscriptionsParquet(_:_:outputs:_:)``).
    static func writeReports(_ model: SubscriptionModel, _ context: RunContext, into outputs: inout [OutputStats]) async throws
        -> RunReports
    {
        let phase = PhaseProgress(phase: "reports", isQuiet: context.options.isQuiet)
        let (calendar, money) = (context.calendar, context.money)
        async let tallies = ReportTallies.make(model, calendar: calendar, context: money)
        outputs += try writeSubscriptions(model.timelines, context)
        var reports = RunReports(await tallies, calendar: context.calendar, currency: context.money.settings.currency)
        reports.refundRequests = try refundRows(RefundRequests.collect(model, money: money), context)
        return try writeAggregateTables(
            reports, context, measuring: { OutcomeCohorts.memberTally($0, timelines: model.timelines, asOf: calendar.asOf, money: money) },
            into: &outputs, phase: phase)
    }

    /// `subscriptions.csv.gz`.
    static func writeSubscriptions(_ timelines: [SubscriptionTimeline], _ context: RunContext) throws -> [OutputStats] {
        let csv = try ReportFileWriter(directory: context.temporary, schema: .subscriptions, isCSV: true)
        for timeline in timelines { try csv.write(SubscriptionsReport.Row(timeline)) }
        return [try csv.finish()]
    }

    /// Runs `stage` (the campaigns) while a child task writes `subscriptions.parquet` from `timelines`, when
    /// `report.formats` holds `parquet`. The reports phase keeps both cores busy (the tallies beside the CSV files);
    /// the campaigns' selection and signing leave one mostly idle, so the file is written beside them, on a thread of
    /// its own (``SideExecutor``; docs/performance.md, session 30). Its stats follow `subscriptions.csv.gz` in
    /// `outputs`, where a run lists them.
    static func besideSubscriptionsParquet<Value>(
        _ timelines: [SubscriptionTimeline], _ context: RunContext, outputs: inout [OutputStats],
        _ stage: (inout [OutputStats]) async throws -> Value
    ) async throws -> Value {
        guard context.config.report.formats.contains(.parquet) else { return try await stage(&outputs) }
        let directory = context.temporary
        var written = outputs
        let value = try await withThrowingTaskGroup(of: OutputStats.self) { group in
            group.addTask(executorPreference: SideExecutor(label: "winback.subscriptions-parquet")) {
                let parquet = try ParquetTableFile(schema: .subscriptions, directory: directory, expectedRows: timelines.count)
                for timeline in timelines { try parquet.append(SubscriptionsReport.Row(timeline)) }
                return try parquet.finish()
            }
            let value = try await stage(&written)
            if let parquet = try await group.next(), let csv = written.firstIndex(where: { $0.name == ReportSchema.subscriptions.name }) {
                written.insert(parquet, at: csv + 1)
            }
            return value
        }
        outputs = written
        return value
    }

    /// The aggregate tables of `reports` and `campaign_outcomes`, whose cohort members `measuring` measures
    /// (``OutcomeCohorts/memberTally(_:timelines:asOf:money:)`` on one machine, the shards' tallies added in a merge).
    static func writeAggregateTables(
        _ reports: RunReports, _ context: RunContext, measuring: ([CampaignCohort]) throws -> TallyTable,
        into outputs: inout [OutputStats], phase: PhaseProgress
    ) throws -> RunReports {
        var reports = reports
        reports.campaignOutcomes = try campaignOutcomes(context, measuring: measuring)
        for alarm in CampaignOutcomesReport.splitAlarms(reports.campaignOutcomes) { context.warn(alarm.warning) }
        func write(_ schema: ReportSchema, _ rows: some Sequence<some TableRow>) throws {
            let writer = try TableWriter(schema, directory: context.temporary, formats: context.config.report.formats)
            try writer.write(rows)
            outputs += try writer.finish()
        }
        try write(.churnMonthly, reports.churnMonthlyRows)
        try write(.churnDaily, reports.churnDailyRows)
        try write(.expirationReasons, reports.expirationReasons)
        try write(.offerUsage, reports.offerUsage)
        try write(.retentionCohorts, reports.retentionCohorts)
        try write(.eventsDaily, reports.eventsDaily)
        try write(.revenueMonthly, reports.money.revenueMonthly.rows())
        try write(.revenueDaily, reports.money.revenueDaily.rows())
        try write(.mrrMonthly, reports.money.mrr.rows())
        try write(.ltvCohorts, reports.money.ltv.rows())
        try write(.campaignOutcomes, reports.campaignOutcomes)
        try write(.refundRequests, reports.refundRequests)
        phase.advance(by: outputs.reduce(0) { $0 + $1.rows })
        phase.finish()
        return reports
    }

    /// `campaign_outcomes` (docs/campaigns.md): the ledger's cohorts selected in the 365 days before `D`, their
    /// members measured by `measuring` on today's subscriptions. Empty without campaigns (no ledger).
    static func campaignOutcomes(_ context: RunContext, measuring: ([CampaignCohort]) throws -> TallyTable) throws
        -> [CampaignOutcomesReport.Row]
    {
        guard let ledger = context.ledger else { return [] }
        let cohorts = try OutcomeCohorts.read(ledger, calendar: context.calendar)
        guard !cohorts.isEmpty else { return [] }
        var designs: [String: CampaignOutcomesReport.Design] = [:]
        for campaign in context.campaigns {
            designs[campaign.id] = .init(plannedAccounts: campaign.plannedAccounts, holdoutPercent: campaign.holdoutPercent)
        }
        return CampaignOutcomesReport.rows(
            cohorts, members: try measuring(cohorts), asOf: context.calendar.asOf, currency: context.money.settings.currency,
            designs: designs)
    }

    /// `refund_requests` (docs/refunds.md): each request with the answer `winback refunds` recorded in the ledger
    /// (read without its lock: `winback refunds` may be answering meanwhile), `unanswered` without one.
    static func refundRows(_ requests: [RefundRequest], _ context: RunContext) throws -> [RefundRequestsReport.Row] {
        guard !requests.isEmpty else { return [] }
        let answers = try OfferLedger.refundAnswers(path: context.loaded.ledgerPath(override: context.options.ledgerOverride))
        return RefundRequestsReport.rows(requests, answers: answers)
    }

    /// What the campaigns stage leaves for publishing.
    struct CampaignResults {
        var perCampaign: [CampaignCounts]
        /// The ledger's run row, finished after publishing.
        var ledgerRunId: Int64?
    }

    /// Campaigns: select (or re-emit the ledger's day) and sign a chunk at a time, each chunk written to
    /// `eligible_accounts.csv.gz` / `offers.ndjson.gz` and inserted into the ledger at once; the day's
    /// selections commit in one transaction. Nothing is signed or recorded when `isSigning` is false.
    /// `candidates` gives each campaign's candidates (``CampaignSelector/candidates(_:timelines:asOf:)``, or the
    /// shards' in a merge).
    static func runCampaigns(
        _ candidates: (Campaign) -> [EligibleAccount], _ context: RunContext, isSigning: Bool, into outputs: inout [OutputStats]
    ) throws -> CampaignResults {
        let options = context.options
        let stage = CampaignStage(
            campaigns: context.campaigns, codePools: context.codePools, appAppleId: context.loaded.config.app.appAppleId,
            signer: context.signer, ledger: context.ledger, isSigning: isSigning, now: options.now,
            nonce: options.nonce, chunkSize: max(1, options.signingChunkSize))
        let plans = try stage.plan(calendar: context.calendar)
        let heldCodes = try stage.heldCodes()
        let eligible = try TableWriter(.eligibleAccounts, directory: context.temporary, formats: context.config.report.formats)
        let offers = try ReportFileWriter(directory: context.temporary, schema: .offers, isCSV: false)
        let phase = PhaseProgress(phase: "sign", isQuiet: options.isQuiet)
        func write(_ chunk: CampaignChunk) throws {
            try eligible.write(chunk.eligibleRows)
            for line in chunk.offerLines { try offers.write(line: line + "\n") }
            phase.advance(by: chunk.offerLines.count)
        }
        var results = CampaignResults(perCampaign: [], ledgerRunId: nil)
        if let ledger = context.ledger, isSigning {
            (results.ledgerRunId, results.perCampaign) = try ledger.recordDay(
                asOf: context.calendar.asOfLabel, startedAt: JobDay.timestamp(options.now())
            ) { recorder in
                var shortfalls: [(String, Int)] = []
                let counts = try stage.run(
                    plans, candidates: candidates, calendar: context.calendar, heldCodes: heldCodes,
                    shortfalls: { shortfalls.append(($0, $1)) }
                ) { chunk in
                    try write(chunk)
                    try recorder.record(chunk.newSelections)
                }
                for (campaign, short) in shortfalls {
                    try recorder.recordShortfall(campaign: campaign, asOf: context.calendar.asOfLabel, codesShort: short)
                }
                CrashPoint.reach("signed")  // inside the transaction: a crash here stores nothing
                return counts
            }
        } else {
            results.perCampaign = try stage.run(
                plans, candidates: candidates, calendar: context.calendar, heldCodes: heldCodes, emit: write)
            CrashPoint.reach("signed")
        }
        phase.finish()
        for counts in results.perCampaign where (counts.codesShort ?? 0) > 0 {
            JobDay.warn(
                "warning: campaign \(counts.id): its offer-code pool ran out: \(counts.codesShort ?? 0) treatment accounts had no code, "
                    + "so the selection stopped there (\(counts.treatment) treated tonight); add codes to offer.codes",
                isQuiet: options.isQuiet)
        }
        CrashPoint.reach("ledger")
        outputs += try eligible.finish()
        outputs.append(try offers.finish())
        outputs += try writeRetentionDecisions(context)
        return results
    }

    /// `retention_decisions.csv.gz` (docs/retention-messaging.md), from the ledger once the day's selections are in it (empty
    /// without Retention Messaging campaigns).
    static func writeRetentionDecisions(_ context: RunContext) throws -> [OutputStats] {
        let calendar = context.calendar
        let asOfDay = InstantFormat.days(year: Int64(calendar.year), month: Int64(calendar.month), day: Int64(calendar.day))
        var chosen: [(campaign: Campaign, selections: [RetentionDecisions.Selection])] = []
        if let ledger = context.ledger {
            for campaign in context.campaigns where campaign.channel == .retentionMessaging {
                let after = InstantFormat.date(days: RetentionDecisions.windowStart(campaign, asOfDay: asOfDay))
                let stored = try ledger.selections(campaign: campaign.id, after: after, through: calendar.asOfLabel)
                chosen.append(
                    (
                        campaign,
                        stored.map {
                            RetentionDecisions.Selection(
                                originalTransactionId: $0.originalTransactionId, accountKey: $0.accountKey, variant: $0.variant,
                                offerIdentifier: $0.offerIdentifier)
                        }
                    ))
            }
        }
        let writer = try TableWriter(.retentionDecisions, directory: context.temporary, formats: context.config.report.formats)
        try writer.write(RetentionDecisions.rows(chosen))
        return try writer.finish()
    }

    /// Publish: `summary.json.gz`, `report.html` and `_manifest.json`, then the temporary directory renamed
    /// into `dt=<D>` (`_SUCCESS` last); the ledger's run row is finished once the day is in place.
    static func publish(
        _ ingested: Ingested, reports: RunReports, campaigns: CampaignResults, _ context: RunContext
    ) throws -> Outcome {
        let (calendar, config, options) = (context.calendar, context.config, context.options)
        let counts = ingested.result.counts
        let offersSigned = !ingested.isOverThreshold
        var outputs = ingested.outputs
        let summary = RunSummary.json(
            calendar: calendar, timeZone: config.report.timeZone, offersSigned: offersSigned, counts: counts,
            reports: reports, campaigns: campaigns.perCampaign.map(campaignSummary),
            retentionRequests: RetentionRequestLog.summary(
                ledgerPath: context.loaded.ledgerPath(override: context.options.ledgerOverride), day: calendar.asOfLabel))
        let summaryWriter = try ReportFileWriter(directory: context.temporary, schema: .summary, isCSV: false)
        try summaryWriter.write(line: JSONText.render(summary) + "\n")
        outputs.append(try summaryWriter.finish())
        let page = RunPage.content(
            calendar: calendar, timeZone: config.report.timeZone, inputs: ingested.result.inputs, counts: counts,
            reports: reports, offersSigned: offersSigned, campaigns: campaigns.perCampaign, freshness: ingested.freshness)
        outputs.append(try RunPage.write(page, to: context.temporary))
        outputs = try ParquetTables.publishedOutputs(
            outputs, directory: context.temporary, outputDirectory: context.publisher.outputDirectory, formats: config.report.formats)

        let manifest = RunSummary.manifest(
            calendar: calendar, timeZone: config.report.timeZone, configSha256: HexDigest.string(SHA256.hash(data: context.loaded.bytes)),
            inputs: ingested.result.inputs, counts: counts, outputs: outputs)
        let manifestPath = context.temporary + "/_manifest.json"
        guard FileManager.default.createFile(atPath: manifestPath, contents: Data((JSONText.render(manifest) + "\n").utf8)) else {
            throw JobError.io(IOError(path: manifestPath, reason: "cannot write"))
        }
        try context.publisher.publish(context.temporary)
        CrashPoint.reach("published")
        context.store?.prune()
        if let ledger = context.ledger, let runId = campaigns.ledgerRunId {
            try ledger.finishRun(
                runId, finishedAt: JobDay.timestamp(options.now()), outcome: "published", counts: JSONText.render(counts.summaryJSON()))
        }

        let exitCode = ingested.isOverThreshold ? ExitStatus.dataError : ExitStatus.success
        if ingested.isOverThreshold, !options.isQuiet {
            Diagnostics.logger.warning(
                "winback: reject rate \(RateFormat.format(counts.rejected, counts.read) ?? "0") exceeds report.maxRejectRate \(config.report.maxRejectRate): reports published, offers not signed (exit 65)"
            )
        }
        RunMetrics.emit(counts: counts, subscriptions: reports.subscriptions, campaigns: campaigns.perCampaign)
        let line = JSONText.object([
            ("command", .string(options.summaryCommand)), ("asOf", .string(calendar.asOfLabel)),
            ("output", .string(context.publisher.finalPath)),
            ("records", counts.summaryJSON(extra: [("future", reports.future), ("otherProductTypes", reports.otherProductTypes)])),
            ("subscriptions", .integer(Int64(reports.subscriptions))), ("rejectRate", .double(counts.rejectRate)),
            ("offersSigned", .bool(offersSigned)), ("dataThrough", ingested.freshness.dataThrough.map(JSONValue.string) ?? .null),
            ("stale", .bool(ingested.freshness.isStale)), ("filesFromStore", .integer(Int64(ingested.result.filesFromStore))),
            ("exitCode", .integer(Int64(exitCode))),
        ])
        return Outcome(exitCode: exitCode, summary: line, publishedPath: context.publisher.finalPath)
    }

    // MARK: Helpers

    static func campaignSummary(_ entry: CampaignCounts) -> (String, JSONValue) {
        var counts: [(String, JSONValue)] = [
            ("eligible", .integer(Int64(entry.eligible))), ("treatment", .integer(Int64(entry.treatment))),
            ("holdout", .integer(Int64(entry.holdout))), ("signed", .integer(Int64(entry.signed))),
        ]
        if let left = entry.codesLeft, let short = entry.codesShort {
            counts += [("codesLeft", .integer(Int64(left))), ("codesShort", .integer(Int64(short)))]
        }
        return (entry.id, JSONText.object(counts))
    }
}
