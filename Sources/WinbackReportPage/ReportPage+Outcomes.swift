import WinbackAnalytics
import WinbackCore

/// The campaign outcomes part of the campaigns section (docs/campaigns.md): each campaign's pooled 30-day lift,
/// its verdict read from the anytime-valid interval (safe to read every day), the fixed 95 % interval (valid
/// for one look planned in advance), a banner for every split alarm, and the cohorts behind it.
extension ReportPage {
    /// The window the page shows.
    static let outcomeWindow = "30"

    static func outcomesPart(_ content: ReportPageContent) -> String {
        let table = ReportTable(.campaignOutcomes, rows: content.campaignOutcomes)
        guard !table.rows.isEmpty else {
            return paragraph("No earlier selection to measure yet: outcomes appear once the ledger holds a day before the as-of date.")
        }
        let rows30 = table.rows.filter { table.text($0, "window_days") == outcomeWindow }
        let campaigns = Set(table.rows.compactMap { table.text($0, "campaign_id") }).sorted(by: CodePointOrder.less)
        var chartRows: [IntervalChart.Row] = []
        var sentences: [String] = []
        for campaign in campaigns {
            let pooled = rows30.first { table.text($0, "campaign_id") == campaign && table.text($0, "selected_on") == nil }
            let cohorts = rows30.filter { table.text($0, "campaign_id") == campaign && table.text($0, "selected_on") != nil }
            let name = "<b>\(HTMLText.escape(campaign))</b>"
            guard cohorts.contains(where: { table.integer($0, "holdout_accounts") > 0 }) else {
                sentences.append("\(name): no holdout, no lift (every selected account was treated).")
                continue
            }
            guard let pooled, let lift = table.text(pooled, "lift").flatMap(Double.init),
                let low = table.text(pooled, "lift_ci_low").flatMap(Double.init),
                let high = table.text(pooled, "lift_ci_high").flatMap(Double.init)
            else {
                sentences.append("\(name): no 30-day window has ended yet.")
                continue
            }
            let sequenceLow = table.text(pooled, "cs_low").flatMap(Double.init)
            let sequenceHigh = table.text(pooled, "cs_high").flatMap(Double.init)
            chartRows.append(IntervalChart.Row(label: campaign, estimate: lift, low: sequenceLow ?? low, high: sequenceHigh ?? high))
            let daily =
                sequenceLow.flatMap { low in
                    sequenceHigh.map { "safe to read every day: \(ChartNumber.fixed(low * 100, 1)) to \(ChartNumber.fixed($0 * 100, 1))" }
                } ?? "no interval safe to read every day yet (no variation)"
            let points =
                "\(ChartNumber.fixed(lift * 100, 1)) points (\(daily); fixed 95 % interval, valid for one pre-planned look only: \(ChartNumber.fixed(low * 100, 1)) to \(ChartNumber.fixed(high * 100, 1)))"
            let rates =
                "\(ChartNumber.percent(csv: table.text(pooled, "treatment_rate"))) of \(ChartNumber.grouped(table.integer(pooled, "treatment_accounts"))) treated against \(ChartNumber.percent(csv: table.text(pooled, "holdout_rate"))) of \(ChartNumber.grouped(table.integer(pooled, "holdout_accounts"))) held out"
            let verdict = Self.verdict(low: sequenceLow, high: sequenceHigh)
            sentences.append(
                "\(name): <span data-column=\"lift\" data-value=\"\(HTMLText.escape(table.text(pooled, "lift") ?? ""))\">\(points)</span> — \(rates) converted within 30 days; \(verdict)."
            )
        }
        var html = "<h3>Did it work? Conversion within 30 days, treated against held out</h3>"
        html += splitAlarmBanners(table)
        html += "<ul class=\"outcomes\">" + sentences.map { "<li>\($0)</li>" }.joined() + "</ul>"
        if !chartRows.isEmpty {
            html += IntervalChart(rows: chartRows, xTitle: "Lift in percentage points (treated − held out), pooled over mature cohorts")
                .rendered(label: "Each campaign's 30-day lift with its 95 % interval")
        }
        let cohortRows = rows30.filter { table.text($0, "selected_on") != nil }
        html +=
            HTMLTable(
                id: "outcomes-table",
                headers: ["Campaign", "Selected on", "Mature", "Treated", "Converted", "Rate", "Held out", "Converted", "Rate", "Lift"],
                rows: cohortRows.suffix(maximumRows).map { row in
                    [
                        .label(table.text(row, "campaign_id") ?? "", column: "campaign_id"),
                        .label(table.text(row, "selected_on") ?? "", column: "selected_on"),
                        .label(table.text(row, "mature") ?? "", column: "mature"),
                        .count(table.integer(row, "treatment_accounts"), column: "treatment_accounts"),
                        .count(table.integer(row, "treatment_converted"), column: "treatment_converted"),
                        .rate(table.text(row, "treatment_rate"), column: "treatment_rate"),
                        .count(table.integer(row, "holdout_accounts"), column: "holdout_accounts"),
                        .count(table.integer(row, "holdout_converted"), column: "holdout_converted"),
                        .rate(table.text(row, "holdout_rate"), column: "holdout_rate"), .rate(table.text(row, "lift"), column: "lift"),
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
    static func splitAlarmBanners(_ table: ReportTable) -> String {
        table.rows.compactMap { row -> String? in
            guard let text = table.text(row, "srm_p"), let p = Double(text), p < SampleRatioCheck.alarmThreshold else { return nil }
            let campaign = HTMLText.escape(table.text(row, "campaign_id") ?? "")
            let cohort = table.text(row, "selected_on").map { "the cohort selected on \(HTMLText.escape($0))" } ?? "the pooled cohorts"
            return "<p class=\"alert srm-alarm\" data-column=\"srm_p\" data-value=\"\(HTMLText.escape(text))\">Split alarm: "
                + "<b>\(campaign)</b>, \(cohort), \(table.text(row, "window_days") ?? "")-day window: \(ChartNumber.grouped(table.integer(row, "treatment_accounts"))) "
                + "treated against \(ChartNumber.grouped(table.integer(row, "holdout_accounts"))) held out is not the configured holdout share "
                + "(p = \(HTMLText.escape(text))). The split is a hash of the account, so this is a defect in selection, cooldown or the "
                + "ledger, not chance: do not act on this campaign's lift until it is found.</p>"
        }.joined()
    }
}
