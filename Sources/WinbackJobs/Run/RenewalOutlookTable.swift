import Foundation
import WinbackAnalytics
import WinbackCore
import WinbackIO
import WinbackOutlook

/// `renewal_outlook` of a run or a merge (docs/renewal-outlook.md): the rows written from their facts under the
/// estimate fit on the whole part, their summary, and what the campaign rules read of them.
struct RenewalOutlookTable {
    /// `renewalOutlook` of the summary and the page.
    var summary: RenewalOutlookSummary
    /// Each row's probability (millionths) and expected proceeds, by `originalTransactionId`; kept only when a
    /// campaign's rules read them.
    var rows: [String: (probability: Int64, expectedProceeds12m: Int64?)]

    /// Writes `renewal_outlook.csv.gz` (and its Parquet twin) from the rows of the facts `facts` hands over in key
    /// order (a merge's, read from the shards). `phase` times the stage (one is started when not given).
    static func write(
        _ part: RenewalOutlook, facts: ((RenewalFacts) throws -> Void) throws -> Void, _ context: RunContext,
        into outputs: inout [OutputStats], phase given: PhaseProgress? = nil
    ) throws -> RenewalOutlookTable {
        let phase = given ?? PhaseProgress(phase: "outlook", isQuiet: context.options.isQuiet)
        let estimates = RenewalEstimates(part.estimator)
        let (money, asOf) = (context.money, context.calendar.asOf)
        var writing = try Writing(context)
        try facts { try writing.add(RenewalOutlookRow($0, estimates: estimates, prices: part.prices, money: money, asOf: asOf)) }
        return try writing.finish(part, into: &outputs, phase: phase)
    }

    /// The outlook of one machine's `model`: its part and rows, written. The part and the rows are each computed over
    /// one slice of the timelines per core, the slices' parts added (as shards' are): the rest of the night leaves the
    /// other core idle then (docs/performance.md).
    static func write(_ model: SubscriptionModel, _ context: RunContext, into outputs: inout [OutputStats]) async throws
        -> RenewalOutlookTable
    {
        let phase = PhaseProgress(phase: "outlook", isQuiet: context.options.isQuiet)
        let (timelines, scope) = (model.timelines, RenewalOutlook.Scope(model, graceDays: context.config.report.gracePeriodDays))
        let size = max(1, (timelines.count + sliceCount - 1) / sliceCount)
        let slices = await inSlices { index in
            var facts: [RenewalFacts] = []
            let range = min(timelines.count, index * size)..<min(timelines.count, (index + 1) * size)
            let part = RenewalOutlook.part(timelines[range], scope) { facts.append($0) }
            return (part: part, facts: facts)
        }
        var whole = RenewalOutlook()
        for slice in slices { whole.add(slice.part) }
        let (part, money, asOf) = (whole, context.money, context.calendar.asOf)
        let rows = await inSlices { index in
            let estimates = RenewalEstimates(part.estimator)
            return slices[index].facts.map { RenewalOutlookRow($0, estimates: estimates, prices: part.prices, money: money, asOf: asOf) }
        }
        var writing = try Writing(context)
        for slice in rows { for row in slice { try writing.add(row) } }
        return try writing.finish(part, into: &outputs, phase: phase)
    }

    /// Slices of the timelines computed at once: one per core.
    static let sliceCount = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// `body` of each slice (0 ..< ``sliceCount``), at once; the results in slice order.
    private static func inSlices<Value: Sendable>(_ body: @escaping @Sendable (Int) -> Value) async -> [Value] {
        await withTaskGroup(of: (Int, Value).self) { group in
            for index in 0..<sliceCount { group.addTask { (index, body(index)) } }
            var results: [(Int, Value)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// The table being written: its files, and the summary and the rows kept so far.
    private struct Writing {
        let files: TableWriter
        let keepsRows: Bool
        var table = RenewalOutlookTable(summary: RenewalOutlookSummary(), rows: [:])

        init(_ context: RunContext) throws {
            files = try TableWriter(.renewalOutlook, directory: context.temporary, formats: context.config.report.formats)
            keepsRows = context.campaigns.contains { $0.rules.usesRenewalOutlook }
        }

        /// Writes the next row (in key order) and sums it into the summary.
        mutating func add(_ row: RenewalOutlookRow) throws {
            try files.write(row)
            table.summary.add(row)
            if keepsRows { table.rows[row.facts.originalTransactionId] = (row.renewalProbability, row.expectedProceeds12m) }
        }

        /// Ends the files; the table with `part`'s backtest.
        func finish(_ part: RenewalOutlook, into outputs: inout [OutputStats], phase: PhaseProgress) throws -> RenewalOutlookTable {
            var table = table
            table.summary.backtest = part.backtest
            outputs += try files.finish()
            phase.advance(by: table.summary.subscriptions)
            phase.finish()
            return table
        }
    }

    /// Whether `account` passes `campaign`'s outlook rules: the row of the subscription it was selected by
    /// (docs/renewal-outlook.md); without a row it does not.
    func admits(_ account: EligibleAccount, _ campaign: Campaign) -> Bool {
        guard campaign.rules.usesRenewalOutlook else { return true }
        guard let row = rows[account.originalTransactionId] else { return false }
        return campaign.rules.admitsOutlook(probability: row.probability, expectedProceeds12m: row.expectedProceeds12m)
    }
}
