import Crypto
import Foundation
import WinbackCore
import WinbackCrypto
import WinbackIO
import WinbackIngest

/// `winback run`: ingest → verify → model → reports → (campaigns) → atomic publish into
/// `<output>/dt=<D>/`, ending with a one-line JSON summary (SPEC §1, §6, §9, §10).
public enum RunJob {
    public struct Outcome: Sendable {
        public var exitCode: Int32
        public var summaryLine: String
        public var publishedPath: String
    }

    /// Builds the model from the deduplicated store, emptying it: transactions move into the timelines
    /// group by group and the renewal infos are freed on return (≈ 250 MB at 1.6 M subscriptions).
    static func model(taking store: inout Deduplicator, calendar: ReportCalendar, gracePeriodDays: Int) -> SubscriptionModel {
        let renewals = store.takeRenewalInfos()
        return SubscriptionModel(
            subscriptions: store.takeSubscriptions(), renewals: renewals, asOf: calendar.asOf, gracePeriodDays: gracePeriodDays)
    }

    public static func run(_ options: RunOptions) async throws -> Outcome {
        let loaded = try LoadedConfig.load(path: options.configPath)
        let config = loaded.config
        let cwd = FileManager.default.currentDirectoryPath
        let output = options.outputOverride.map { FileSystem.resolve($0, against: cwd) } ?? loaded.resolve(config.output)
        let calendar = try Self.calendar(config: config, asOf: options.asOf, now: options.now())
        let campaigns: [Campaign]
        do {
            campaigns = try CampaignParser.parse(config.campaigns)
        } catch {
            throw JobError.config(file: loaded.path, error)
        }
        let warn: (String) -> Void = { message in
            if !options.isQuiet { FileHandle.standardError.write(Data((message + "\n").utf8)) }
        }
        let signer =
            try campaigns.contains(where: { $0.audience.isSigned })
            ? OfferSigner(key: SigningKeyLoader.load(loaded, environment: options.environment, warn: warn), bundleId: config.app.bundleId)
            : nil
        let ledgerPath = options.ledgerOverride.map { FileSystem.resolve($0, against: cwd) } ?? loaded.resolve(config.ledger)
        let ledger = campaigns.isEmpty ? nil : try OfferLedger(path: ledgerPath)

        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw JobError.io(IOError(path: output, reason: "cannot create output directory (\(error.localizedDescription))"))
        }
        guard FileManager.default.isWritableFile(atPath: output) else {
            throw JobError.io(IOError(path: output, reason: "output directory is not writable"))
        }
        let lock = try RunLock(
            outputDirectory: output, startedAt: InstantFormat.iso8601(milliseconds: Int64(options.now().timeIntervalSince1970 * 1000)))
        defer { withExtendedLifetime(lock) {} }
        let publisher = Publisher(outputDirectory: output, asOf: calendar.asOfLabel)
        publisher.removeLeftovers()
        let temporary = try publisher.makeTemporaryDirectory()

        // Ingest, streaming rejects into rejects.ndjson.gz.
        let rejects = try ReportFileWriter(directory: temporary, schema: ReportSchema.rejects, isCSV: false)
        // The closure captures only what it reads: the ingest's consumer it is inlined into copied the
        // captures for every outcome, rejected or not, and with `options` that was the whole struct (its
        // closures and environment, a dozen retains) per record.
        let isVerbose = options.isVerbose
        var ingest = try await IngestStage.run(loaded, isQuiet: options.isQuiet) { rejection in
            try rejects.write(line: rejection.jsonLine + "\n")
            if isVerbose { FileHandle.standardError.write(Data((rejection.diagnostic + "\n").utf8)) }
        }
        for message in ingest.inputWarnings { warn("warning: \(message)") }
        var outputs = [try rejects.finish()]
        let counts = ingest.counts
        let isOverThreshold = counts.rejectRate > config.report.maxRejectRate
        let freshness = DataFreshness(
            newestSignedDate: counts.newestSignedDate, calendar: calendar, maxLagDays: config.report.maxDataLagDays)
        if freshness.isStale { warn(freshness.warning(asOf: calendar.asOfLabel)) }

        // Model and reports.
        MemoryRelease.trim()
        let modelPhase = PhaseProgress(phase: "model", isQuiet: options.isQuiet)
        let model = Self.model(taking: &ingest.deduplicated, calendar: calendar, gracePeriodDays: config.report.gracePeriodDays)
        // The store's groups and renewal infos are gone now; give their pages back before the reports.
        MemoryRelease.trim()
        modelPhase.advance(by: model.timelines.count)
        modelPhase.finish()

        let reportPhase = PhaseProgress(phase: "reports", isQuiet: options.isQuiet)
        // The aggregates compute on the other cores while this one writes the largest file.
        async let concurrentReports = RunReports.concurrent(model: model, calendar: calendar)
        let subscriptions = try ReportFileWriter(directory: temporary, schema: .subscriptions, isCSV: true)
        for timeline in model.timelines { try subscriptions.write { SubscriptionsReport.append(timeline, to: &$0) } }
        outputs.append(try subscriptions.finish())
        let reports = await concurrentReports
        let tables: [(ReportSchema, [[String?]])] = [
            (.churnMonthly, reports.churnMonthlyRows),
            (.churnDaily, reports.churnDaily.rows(productGroups: model.productGroups)),
            (.expirationReasons, reports.expirationReasons),
            (.offerUsage, reports.offerUsage),
            (.retentionCohorts, reports.retentionCohorts),
        ]
        for (schema, rows) in tables {
            let writer = try ReportFileWriter(directory: temporary, schema: schema, isCSV: true)
            for row in rows { try writer.write(row: row) }
            outputs.append(try writer.finish())
        }

        // Campaigns: select (or re-emit the ledger's day) and sign a chunk at a time, each chunk written to
        // the reports and inserted into the ledger at once; the day's selections commit in one transaction.
        let stage = CampaignStage(
            campaigns: campaigns, signer: signer, ledger: ledger, isSigning: !isOverThreshold, now: options.now, nonce: options.nonce,
            chunkSize: max(1, options.signingChunkSize))
        let plans = try stage.plan(calendar: calendar)
        let eligible = try ReportFileWriter(directory: temporary, schema: .eligibleAccounts, isCSV: true)
        let offers = try ReportFileWriter(directory: temporary, schema: .offers, isCSV: false)
        let signPhase = PhaseProgress(phase: "sign", isQuiet: options.isQuiet)
        func write(_ chunk: CampaignChunk) throws {
            for line in chunk.eligibleRows { try eligible.write(line: line) }
            for line in chunk.offerLines { try offers.write(line: line + "\n") }
            signPhase.advance(by: chunk.offerLines.count)
        }
        let perCampaign: [CampaignStage.Counts]
        var runId: Int64? = nil
        if let ledger, !isOverThreshold {
            let started = InstantFormat.iso8601(milliseconds: Int64(options.now().timeIntervalSince1970 * 1000))
            (runId, perCampaign) = try ledger.recordDay(asOf: calendar.asOfLabel, startedAt: started) { recorder in
                let counts = try stage.run(plans, model: model, calendar: calendar) { chunk in
                    try write(chunk)
                    try recorder.record(chunk.newSelections)
                }
                CrashPoint.reach("signed")  // inside the transaction: a crash here stores nothing
                return counts
            }
        } else {
            perCampaign = try stage.run(plans, model: model, calendar: calendar, emit: write)
            CrashPoint.reach("signed")
        }
        signPhase.finish()
        CrashPoint.reach("ledger")
        outputs.append(try eligible.finish())
        outputs.append(try offers.finish())

        let summary = RunSummary.json(
            calendar: calendar, timeZone: config.report.timeZone, offersSigned: !isOverThreshold, counts: counts, model: model,
            reports: reports,
            campaigns: perCampaign.map(Self.campaignSummary))
        let summaryWriter = try ReportFileWriter(directory: temporary, schema: .summary, isCSV: false)
        try summaryWriter.write(line: JSONText.render(summary) + "\n")
        outputs.append(try summaryWriter.finish())
        let page = RunPage.content(
            calendar: calendar, timeZone: config.report.timeZone, inputs: ingest.inputs, counts: counts, model: model, reports: reports,
            offersSigned: !isOverThreshold, campaigns: perCampaign, freshness: freshness)
        outputs.append(try RunPage.write(page, to: temporary))
        reportPhase.advance(by: outputs.reduce(0) { $0 + $1.rows })
        reportPhase.finish()

        let configDigest = HexDigest.string(SHA256.hash(data: loaded.bytes))
        let manifest = RunSummary.manifest(
            calendar: calendar, timeZone: config.report.timeZone, configSha256: configDigest, inputs: ingest.inputs, counts: counts,
            outputs: outputs)
        let manifestPath = temporary + "/_manifest.json"
        guard FileManager.default.createFile(atPath: manifestPath, contents: Data((JSONText.render(manifest) + "\n").utf8)) else {
            throw JobError.io(IOError(path: manifestPath, reason: "cannot write"))
        }
        try publisher.publish(temporary)
        CrashPoint.reach("published")
        if let ledger, let runId {
            let finished = InstantFormat.iso8601(milliseconds: Int64(options.now().timeIntervalSince1970 * 1000))
            try ledger.finishRun(runId, finishedAt: finished, outcome: "published", counts: JSONText.render(counts.summaryJSON()))
        }

        let exitCode = isOverThreshold ? ExitStatus.dataError : ExitStatus.success
        if isOverThreshold, !options.isQuiet {
            FileHandle.standardError.write(
                Data(
                    "winback: reject rate \(RateFormat.format(counts.rejected, counts.read) ?? "0") exceeds report.maxRejectRate \(config.report.maxRejectRate): reports published, offers not signed (exit 65)\n"
                        .utf8))
        }
        let line = JSONText.object([
            ("command", .string("run")), ("asOf", .string(calendar.asOfLabel)), ("output", .string(publisher.finalPath)),
            ("records", counts.summaryJSON(extra: [("future", model.future), ("otherProductTypes", model.otherProductTypes)])),
            ("subscriptions", .integer(Int64(model.timelines.count))), ("rejectRate", .double(counts.rejectRate)),
            ("offersSigned", .bool(!isOverThreshold)), ("dataThrough", freshness.dataThrough.map(JSONValue.string) ?? .null),
            ("stale", .bool(freshness.isStale)), ("exitCode", .integer(Int64(exitCode))),
        ])
        if options.exitsAfterRun { ExitReclaim.keep(model) }
        return Outcome(exitCode: exitCode, summaryLine: JSONText.render(line), publishedPath: publisher.finalPath)
    }

    static func campaignSummary(_ entry: (id: String, eligible: Int, treatment: Int, holdout: Int, signed: Int)) -> (String, JSONValue) {
        let counts: [(String, JSONValue)] = [
            ("eligible", .integer(Int64(entry.eligible))), ("treatment", .integer(Int64(entry.treatment))),
            ("holdout", .integer(Int64(entry.holdout))), ("signed", .integer(Int64(entry.signed))),
        ]
        return (entry.id, JSONText.object(counts))
    }

    /// The report calendar for `--as-of`, or yesterday in the report time zone.
    static func calendar(config: WinbackConfig, asOf: String?, now: Date) throws(JobError) -> ReportCalendar {
        let date: (Int, Int, Int)
        if let asOf {
            guard let parsed = ReportCalendar.parseDate(asOf) else {
                throw .usage("--as-of: expected a date YYYY-MM-DD, found '\(asOf)'")
            }
            date = parsed
        } else {
            var gregorian = Calendar(identifier: .gregorian)
            gregorian.timeZone = TimeZone(identifier: config.report.timeZone) ?? .current
            let today = gregorian.dateComponents([.year, .month, .day], from: now)
            let days = InstantFormat.days(year: Int64(today.year ?? 1970), month: Int64(today.month ?? 1), day: Int64(today.day ?? 1)) - 1
            let (y, m, d) = InstantFormat.civil(fromDays: days)
            date = (Int(y), Int(m), Int(d))
        }
        guard let calendar = ReportCalendar(timeZone: config.report.timeZone, asOfYear: date.0, month: date.1, day: date.2) else {
            throw .usage("report.timeZone: unknown time zone '\(config.report.timeZone)'")
        }
        return calendar
    }
}
