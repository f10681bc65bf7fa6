import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackCrypto
import WinbackIO
import WinbackIngest
import WinbackJobs
import WinbackSampleData

/// `winback bench model`: times the model and the report writers on simulated (unsigned) transactions,
/// and measures the memory the deduplicated store costs per transaction. Ingest and signatures are
/// measured separately (`winback verify` on a generated export).
public enum ModelBenchmark {
    /// What the model benchmark measured.
    public struct Result: Sendable {
        /// Simulated transactions.
        public var transactions: Int
        /// Subscriptions they form.
        public var subscriptions: Int
        /// Bytes of the deduplicated store per transaction.
        public var storeBytesPerTransaction: Double
        /// Seconds to build the model.
        public var modelSeconds: Double
        /// Seconds to compute and write the reports.
        public var reportSeconds: Double
        /// The JSON line printed.
        public var summaryLine: String
    }

    /// One campaign per audience, with rules like the sample config's.
    static let benchmarkCampaigns: [Campaign] = {
        var winBack = CampaignRules()
        winBack.minPaidDays = 30
        winBack.minDaysSinceLapse = 7
        winBack.maxDaysSinceLapse = 365
        winBack.lapseReasons = [.voluntary, .priceIncrease, .other, .unknown]
        var nearExpiry = CampaignRules()
        nearExpiry.maxDaysToExpiry = 30
        return [
            Campaign(id: "bench-win-back", audience: .winBack, offerIdentifier: "winback", rules: winBack, holdoutPercent: 10),
            Campaign(id: "bench-retention", audience: .retention, offerIdentifier: "retention", rules: nearExpiry, holdoutPercent: 10),
            Campaign(id: "bench-price-increase", audience: .priceIncrease, offerIdentifier: "retention", rules: nearExpiry),
            Campaign(id: "bench-billing", audience: .billingIssue),
        ]
    }()

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Simulates `target` transactions, builds the model and writes each report into `outputDirectory`, timing each.
    public static func run(transactions target: Int, seed: UInt64, outputDirectory: String) async throws -> Result {
        var simulator = SubscriptionSimulator(sampleSeed: seed)
        let decoder = PayloadDecoder(app: SampleDataGenerator.app)
        let before = ResidentMemory.bytes
        var store = Deduplicator()
        var count = 0
        var index = 0
        while count < target {
            let subscription = simulator.simulate(index: index)
            index += 1
            for payload in subscription.transactions + subscription.resigned {
                if let (decoded, _) = try? decoder.decode(payload, as: .transaction) {
                    store.add(decoded)
                    count += 1
                }
            }
            if let renewal = subscription.renewalInfo, let (decoded, _) = try? decoder.decode(renewal, as: .renewalInfo) {
                store.add(decoded)
            }
        }
        MemoryRelease.trim()
        let storeBytes = ResidentMemory.bytes - before
        guard let calendar = ReportCalendar(timeZone: "UTC", asOfYear: 2026, month: 11, day: 19) else {
            throw JobError.internalError("calendar")
        }
        var model: SubscriptionModel?
        let modelSeconds = seconds {
            model = SubscriptionModel(
                subscriptions: store.takeSubscriptions(), renewals: store.renewalInfos, asOf: calendar.asOf, gracePeriodDays: 16)
        }
        guard let model else { throw JobError.internalError("model") }
        // What the timelines add beyond the store they were built from (which they replace).
        MemoryRelease.trim()
        let modelBytes = ResidentMemory.bytes - before - storeBytes
        try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        var rows = 0
        var writerSeconds: [(String, JSONValue)] = []
        let aggregateStart = DispatchTime.now().uptimeNanoseconds
        let reports = await RunReports.of(model, calendar: calendar, money: .unconverted)
        let aggregateSeconds = Double(DispatchTime.now().uptimeNanoseconds - aggregateStart) / 1e9
        writerSeconds.append(("aggregates", .double((aggregateSeconds * 1000).rounded() / 1000)))
        let tables: [(ReportSchema, (ReportFileWriter) throws -> Void)] = [
            (
                .subscriptions,
                { writer in for timeline in model.timelines { try writer.write(SubscriptionsReport.Row(timeline)) } }
            ),
            (.churnMonthly, { writer in for row in reports.churnMonthlyRows { try writer.write(row) } }),
            (.churnDaily, { writer in for row in reports.churnDailyRows { try writer.write(row) } }),
            (.expirationReasons, { writer in for row in reports.expirationReasons { try writer.write(row) } }),
            (.offerUsage, { writer in for row in reports.offerUsage { try writer.write(row) } }),
            (.retentionCohorts, { writer in for row in reports.retentionCohorts { try writer.write(row) } }),
        ]
        for (schema, write) in tables {
            let elapsed = try seconds {
                let writer = try ReportFileWriter(directory: outputDirectory, schema: schema, isCSV: true)
                try write(writer)
                rows += try writer.finish().rows
            }
            writerSeconds.append((schema.name, .double((elapsed * 1000).rounded() / 1000)))
        }
        let reportSeconds = writerSeconds.reduce(0.0) { total, entry in
            if case .double(let value) = entry.1 { return total + value }
            return total
        }
        // Campaign selection, one campaign per audience (signing is `bench --offers`).
        let selector = CampaignSelector(holdoutBucket: HoldoutHash.bucket)
        var selected = 0
        let selectionSeconds = seconds {
            for campaign in benchmarkCampaigns {
                selected += selector.select(campaign, timelines: model.timelines, asOf: calendar.asOf, coolingDown: []).count
            }
        }
        let perTransaction = Double(storeBytes) / Double(max(count, 1))
        let line = JSONText.render(
            JSONText.object([
                ("benchmark", .string("model")), ("transactions", .integer(Int64(count))),
                ("subscriptions", .integer(Int64(model.timelines.count))),
                ("storeBytesPerTransaction", .integer(Int64(perTransaction.rounded()))),
                ("timelineBytesPerSubscription", .integer(Int64(modelBytes / max(model.timelines.count, 1)))),
                ("modelSeconds", .double((modelSeconds * 1000).rounded() / 1000)),
                ("reportSeconds", .double((reportSeconds * 1000).rounded() / 1000)),
                ("reportSecondsByFile", JSONText.object(writerSeconds)),
                ("reportRows", .integer(Int64(rows))),
                ("selectionSeconds", .double((selectionSeconds * 1000).rounded() / 1000)), ("selectedAccounts", .integer(Int64(selected))),
                ("peakResidentBytes", .integer(Int64(ResidentMemory.bytes))),
            ]))
        return Result(
            transactions: count, subscriptions: model.timelines.count, storeBytesPerTransaction: perTransaction, modelSeconds: modelSeconds,
            reportSeconds: reportSeconds, summaryLine: line)
    }
}
