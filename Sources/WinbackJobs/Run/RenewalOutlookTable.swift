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

    /// Writes `renewal_outlook.csv.gz` (and its Parquet twin) from the rows `facts` hands over in key order.
    /// `phase` times the stage (one is started when not given).
    static func write(
        _ part: RenewalOutlook, facts: ((RenewalFacts) throws -> Void) throws -> Void, _ context: RunContext,
        into outputs: inout [OutputStats], phase given: PhaseProgress? = nil
    ) throws -> RenewalOutlookTable {
        let phase = given ?? PhaseProgress(phase: "outlook", isQuiet: context.options.isQuiet)
        let estimates = RenewalEstimates(part.estimator)
        let writer = try TableWriter(.renewalOutlook, directory: context.temporary, formats: context.config.report.formats)
        let keepsRows = context.campaigns.contains { $0.rules.usesRenewalOutlook }
        var table = RenewalOutlookTable(summary: RenewalOutlookSummary(), rows: [:])
        let (money, asOf) = (context.money, context.calendar.asOf)
        try facts { fact in
            let row = RenewalOutlookRow(fact, estimates: estimates, prices: part.prices, money: money, asOf: asOf)
            try writer.write(row)
            table.summary.add(row)
            if keepsRows { table.rows[fact.originalTransactionId] = (row.renewalProbability, row.expectedProceeds12m) }
        }
        table.summary.backtest = part.backtest
        outputs += try writer.finish()
        phase.advance(by: table.summary.subscriptions)
        phase.finish()
        return table
    }

    /// The outlook of one machine's `model`: its part and rows, written.
    static func write(_ model: SubscriptionModel, _ context: RunContext, into outputs: inout [OutputStats]) throws -> RenewalOutlookTable {
        let phase = PhaseProgress(phase: "outlook", isQuiet: context.options.isQuiet)
        var facts: [RenewalFacts] = []
        let part = RenewalOutlook.part(model, graceDays: context.config.report.gracePeriodDays) { facts.append($0) }
        return try write(part, facts: { body in for fact in facts { try body(fact) } }, context, into: &outputs, phase: phase)
    }

    /// Whether `account` passes `campaign`'s outlook rules: the row of the subscription it was selected by
    /// (docs/renewal-outlook.md); without a row it does not.
    func admits(_ account: EligibleAccount, _ campaign: Campaign) -> Bool {
        guard campaign.rules.usesRenewalOutlook else { return true }
        guard let row = rows[account.originalTransactionId] else { return false }
        return campaign.rules.admitsOutlook(probability: row.probability, expectedProceeds12m: row.expectedProceeds12m)
    }
}
