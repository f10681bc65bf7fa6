/// The campaign outcomes part of the campaigns section (SPEC §12): each campaign's pooled 30-day lift with
/// its 95 % interval, in words, and the cohorts behind it.
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
            chartRows.append(IntervalChart.Row(label: campaign, estimate: lift, low: low, high: high))
            let points =
                "\(ChartNumber.fixed(lift * 100, 1)) points (95 % interval \(ChartNumber.fixed(low * 100, 1)) to \(ChartNumber.fixed(high * 100, 1)))"
            let rates =
                "\(ChartNumber.percent(csv: table.text(pooled, "treatment_rate"))) of \(ChartNumber.grouped(table.integer(pooled, "treatment_accounts"))) treated against \(ChartNumber.percent(csv: table.text(pooled, "holdout_rate"))) of \(ChartNumber.grouped(table.integer(pooled, "holdout_accounts"))) held out"
            let verdict =
                low <= 0 && high >= 0
                ? "no measurable effect yet (the interval contains zero)" : lift > 0 ? "a measurable lift" : "a measurable drop"
            sentences.append(
                "\(name): <span data-column=\"lift\" data-value=\"\(HTMLText.escape(table.text(pooled, "lift") ?? ""))\">\(points)</span> — \(rates) converted within 30 days; \(verdict)."
            )
        }
        var html = "<h3>Did it work? Conversion within 30 days, treated against held out</h3>"
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
}
