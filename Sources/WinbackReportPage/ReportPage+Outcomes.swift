import WinbackAnalytics
import WinbackCore

/// The campaign outcomes part of the campaigns section (docs/campaigns.md): each campaign's pooled 30-day lift,
/// its verdict read from the anytime-valid interval (safe to read every day), the fixed 95 % interval (valid
/// for one look planned in advance), a banner for every split alarm, and the cohorts behind it.
extension ReportPage {
    /// The window the page shows.
    static let outcomeWindow: Int64 = 30

    static func outcomesPart(_ content: ReportPageContent) -> String {
        let rows = content.campaignOutcomes
        guard !rows.isEmpty else {
            return paragraph("No earlier selection to measure yet: outcomes appear once the ledger holds a day before the as-of date.")
        }
        let rows30 = rows.filter { $0.windowDays == outcomeWindow }
        let campaigns = Set(rows.map(\.campaignId)).sorted(by: CodePointOrder.less)
        var chartRows: [IntervalChart.Row] = []
        var sentences: [String] = []
        for campaign in campaigns {
            let pooled = rows30.first { $0.campaignId == campaign && $0.selectedOn == nil }
            let cohorts = rows30.filter { $0.campaignId == campaign && $0.selectedOn != nil }
            let name = "<b>\(HTMLText.escape(campaign))</b>"
            guard cohorts.contains(where: { $0.holdout.accounts > 0 }) else {
                sentences.append("\(name): no holdout, no lift (every selected account was treated).")
                continue
            }
            guard let pooled, let liftMillionths = pooled.lift, let interval = pooled.liftInterval else {
                sentences.append("\(name): no 30-day window has ended yet.")
                continue
            }
            let lift = RateFormat.value(millionths: liftMillionths)
            let (low, high) = (RateFormat.value(millionths: interval.low), RateFormat.value(millionths: interval.high))
            let sequenceLow = pooled.sequence.map { RateFormat.value(millionths: $0.low) }
            let sequenceHigh = pooled.sequence.map { RateFormat.value(millionths: $0.high) }
            chartRows.append(IntervalChart.Row(label: campaign, estimate: lift, low: sequenceLow ?? low, high: sequenceHigh ?? high))
            let daily =
                sequenceLow.flatMap { low in
                    sequenceHigh.map { "safe to read every day: \(ChartNumber.fixed(low * 100, 1)) to \(ChartNumber.fixed($0 * 100, 1))" }
                } ?? "no interval safe to read every day yet (no variation)"
            let points =
                "\(ChartNumber.fixed(lift * 100, 1)) points (\(daily); fixed 95 % interval, valid for one pre-planned look only: \(ChartNumber.fixed(low * 100, 1)) to \(ChartNumber.fixed(high * 100, 1)))"
            let rates =
                "\(ChartNumber.percent(millionths: pooled.treatmentRate)) of \(ChartNumber.grouped(pooled.treatment.accounts)) treated against \(ChartNumber.percent(millionths: pooled.holdoutRate)) of \(ChartNumber.grouped(pooled.holdout.accounts)) held out"
            let verdict = Self.verdict(low: sequenceLow, high: sequenceHigh)
            sentences.append(
                "\(name): <span data-column=\"lift\" data-value=\"\(RateFormat.text(millionths: liftMillionths))\">\(points)</span> — \(rates) converted within 30 days; \(verdict)."
            )
        }
        var html = "<h3>Did it work? Conversion within 30 days, treated against held out</h3>"
        html += splitAlarmBanners(rows)
        html += "<ul class=\"outcomes\">" + sentences.map { "<li>\($0)</li>" }.joined() + "</ul>"
        if !chartRows.isEmpty {
            html += IntervalChart(rows: chartRows, xTitle: "Lift in percentage points (treated − held out), pooled over mature cohorts")
                .rendered(label: "Each campaign's 30-day lift with its 95 % interval")
        }
        let cohortRows = rows30.filter { $0.selectedOn != nil }
        html +=
            HTMLTable(
                id: "outcomes-table",
                headers: ["Campaign", "Selected on", "Mature", "Treated", "Converted", "Rate", "Held out", "Converted", "Rate", "Lift"],
                rows: cohortRows.suffix(maximumRows).map { row in
                    [
                        .label(row.campaignId, column: "campaign_id"), .label(row.selectedOn ?? "", column: "selected_on"),
                        .label(row.mature ? "true" : "false", column: "mature"),
                        .count(row.treatment.accounts, column: "treatment_accounts"),
                        .count(row.treatment.converted, column: "treatment_converted"), .rate(row.treatmentRate, column: "treatment_rate"),
                        .count(row.holdout.accounts, column: "holdout_accounts"),
                        .count(row.holdout.converted, column: "holdout_converted"),
                        .rate(row.holdoutRate, column: "holdout_rate"), .rate(row.lift, column: "lift"),
                    ]
                },
                footnote:
                    "30-day windows of each selection day; every window (7, 30, 60, 90 days), redemptions and net revenue per variant are in campaign_outcomes.csv.gz."
            ).rendered
        return html
    }

    /// The verdict a marketer may act on, read from the anytime-valid interval (docs/campaigns.md): "a measurable
    /// lift" only when all of it is above zero, "a measurable harm" when all of it is below.
    static func verdict(low: Double?, high: Double?) -> String {
        if let low, low > 0 { return "a measurable lift" }
        if let high, high < 0 { return "a measurable harm" }
        return "no measurable effect yet"
    }

    /// One banner per row whose split check failed (`srm_p` < 0.001): its lift cannot be trusted.
    static func splitAlarmBanners(_ rows: [CampaignOutcomesReport.Row]) -> String {
        CampaignOutcomesReport.splitAlarms(rows).map { alarm in
            let row = rows.first {
                $0.campaignId == alarm.campaignId && $0.selectedOn == alarm.selectedOn && $0.windowDays == alarm.windowDays
            }
            let campaign = HTMLText.escape(alarm.campaignId)
            let cohort = alarm.selectedOn.map { "the cohort selected on \(HTMLText.escape($0))" } ?? "the pooled cohorts"
            return "<p class=\"alert srm-alarm\" data-column=\"srm_p\" data-value=\"\(alarm.srmP)\">Split alarm: "
                + "<b>\(campaign)</b>, \(cohort), \(alarm.windowDays)-day window: \(ChartNumber.grouped(row?.treatment.accounts ?? 0)) "
                + "treated against \(ChartNumber.grouped(row?.holdout.accounts ?? 0)) held out is not the configured holdout share "
                + "(p = \(alarm.srmP)). The split is a hash of the account, so this is a defect in selection, cooldown or the "
                + "ledger, not chance: do not act on this campaign's lift until it is found.</p>"
        }.joined()
    }
}
