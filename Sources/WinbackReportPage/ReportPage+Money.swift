import WinbackAnalytics

/// The money section of `report.html` (docs/money.md): revenue by month, MRR and ARPPU, and LTV curves.
extension ReportPage {
    /// Most cohorts drawn as LTV curves.
    static let maximumLTVCohorts = 6

    /// `milliunits` of `currency` as `1,234.57 USD` (two decimals, half away from zero).
    static func money(_ milliunits: Int64, _ currency: String) -> String {
        let cents = MoneyMath.rounded(Int128(milliunits), over: 10)
        let whole = ChartNumber.grouped(Int(cents / 100))
        let fraction = abs(cents % 100)
        let sign = cents < 0 && cents / 100 == 0 ? "-" : ""
        return sign + whole + "." + (fraction < 10 ? "0" : "") + String(fraction) + " " + currency
    }

    static func moneySection(_ content: ReportPageContent) -> String {
        guard let currency = content.currency else {
            return paragraph(
                "Set report.currency (with report.exchangeRates) to see revenue, MRR and LTV in one currency here. "
                    + "revenue_monthly.csv.gz, mrr_monthly.csv.gz and ltv_cohorts.csv.gz hold them per currency.")
        }
        var byMonth: [String: RevenueReport.Counts] = [:]
        for row in content.revenueMonthly { byMonth[row.period, default: RevenueReport.Counts()].add(row.counts) }
        var mrrByMonth: [String: (active: Int, mrr: Int64)] = [:]
        for row in content.mrrMonthly {
            let entry = mrrByMonth[row.month] ?? (0, 0)
            mrrByMonth[row.month] = (entry.active + row.counts.activePaidEnd, entry.mrr + row.counts.mrrEnd)
        }
        let last = byMonth[content.lastFullMonth] ?? RevenueReport.Counts()
        let lastMRR = mrrByMonth[content.lastFullMonth] ?? (0, 0)
        let arppu = lastMRR.active == 0 ? nil : MoneyMath.rounded(Int128(lastMRR.mrr), over: Int128(lastMRR.active))

        var html = "<div class=\"callout\">"
        for (caption, column, value) in [
            ("Gross", "gross", last.gross), ("Refunds", "refunds", last.refunds), ("Net", "net", last.net),
            ("Proceeds (estimate)", "proceeds", last.proceeds), ("MRR at month end", "mrrEnd", lastMRR.mrr),
        ] {
            html += figure("\(caption), \(content.lastFullMonth)", display: money(value, currency), column: column, value: String(value))
        }
        if let arppu {
            html += figure("ARPPU, \(content.lastFullMonth)", display: money(arppu, currency), column: "arppu", value: String(arppu))
        }
        html += "</div>"

        let months = content.months.filter { byMonth[$0] != nil || mrrByMonth[$0] != nil }
        func units(_ milliunits: Int64) -> Double { Double(milliunits) / 1000 }
        let revenueSeries = [
            ChartSeries(name: "gross", color: ChartPalette.category(0), values: months.map { byMonth[$0].map { units($0.gross) } }),
            ChartSeries(name: "refunds", color: ChartPalette.category(6), values: months.map { byMonth[$0].map { units($0.refunds) } }),
            ChartSeries(name: "net", color: ChartPalette.category(2), values: months.map { byMonth[$0].map { units(max(0, $0.net)) } }),
            ChartSeries(
                name: "proceeds", color: ChartPalette.category(1), values: months.map { byMonth[$0].map { units(max(0, $0.proceeds)) } }),
        ]
        html += "<h3>Revenue per month (\(HTMLText.escape(currency)))</h3>" + ChartSeries.legend(revenueSeries)
        html += VerticalBarChart(
            categories: months, series: revenueSeries, isStacked: false, xTitle: "Month (the last one runs to as-of)",
            yTitle: currency, isCount: true
        ).rendered(label: "Gross, refunds, net and proceeds per month")
        let unpriced = byMonth.values.reduce(0) { $0 + $1.unpriced }
        let unconverted = byMonth.values.reduce(0) { $0 + $1.unconverted }
        html += paragraph(
            "Proceeds are an estimate: price less the tax share of report.taxRates, less Apple's commission. "
                + "\(ChartNumber.grouped(unpriced)) transactions without a price and \(ChartNumber.grouped(unconverted)) "
                + "charges or refunds without an exchange rate are counted in revenue_monthly.csv.gz, not summed.")

        let mrrSeries = [
            ChartSeries(name: "MRR", color: ChartPalette.category(0), values: months.map { mrrByMonth[$0].map { units($0.mrr) } })
        ]
        html += "<h3>Monthly recurring revenue at month end</h3>"
        html += VerticalBarChart(
            categories: months, series: mrrSeries, isStacked: false, xTitle: "Month (the last one ends at as-of)", yTitle: currency,
            isCount: true
        ).rendered(label: "MRR at the end of each month")
        let arppuSeries = [
            ChartSeries(
                name: "ARPPU", color: ChartPalette.category(2),
                values: months.map { month in
                    mrrByMonth[month].flatMap {
                        $0.active == 0 ? nil : Double(MoneyMath.rounded(Int128($0.mrr), over: Int128($0.active))) / 1000
                    }
                })
        ]
        html += "<h3>Average revenue per paying subscriber (MRR ÷ active paid)</h3>"
        html += VerticalBarChart(
            categories: months, series: arppuSeries, isStacked: false, xTitle: "Month (the last one ends at as-of)", yTitle: currency,
            isCount: true
        ).rendered(label: "ARPPU at the end of each month")
        html += ltvChart(content, currency: currency)
        return html
    }

    /// LTV by month index for up to six cohorts with an eligible member, all products together.
    static func ltvChart(_ content: ReportPageContent, currency: String) -> String {
        var cells: [String: [Int: (eligible: Int, net: Int64)]] = [:]
        for row in content.ltvCohorts {
            let cell = cells[row.cohortMonth]?[row.monthIndex] ?? (0, 0)
            cells[row.cohortMonth, default: [:]][row.monthIndex] = (cell.eligible + row.eligible, cell.net + row.cumulativeNet)
        }
        // Up to six cohorts spread over the data, the latest always among them.
        let all = cells.keys.filter { cells[$0]?[0].map { $0.eligible > 0 } ?? false }.sorted(by: CodePointOrder.less)
        guard !all.isEmpty else { return paragraph("No cohort has completed its first month yet.") }
        let spacing = (all.count + maximumLTVCohorts - 1) / maximumLTVCohorts
        let cohorts = Array(stride(from: all.count - 1, through: 0, by: -spacing).map { all[$0] }.reversed())
        let lastIndex = cohorts.compactMap { cohort in cells[cohort]?.filter { $0.value.eligible > 0 }.keys.max() }.max() ?? 0
        let steps = (0...lastIndex).map(String.init)
        let series = cohorts.enumerated().map { offset, cohort in
            ChartSeries(
                name: cohort, color: ChartPalette.category(offset),
                values: (0...lastIndex).map { index -> Double? in
                    guard let cell = cells[cohort]?[index], cell.eligible > 0 else { return nil }
                    return Double(MoneyMath.rounded(Int128(cell.net), over: Int128(cell.eligible))) / 1000
                })
        }
        return "<h3>Lifetime value per cohort</h3>" + ChartSeries.legend(series)
            + LineChart(
                steps: steps, series: series, xTitle: "Months since the first paid purchase (k: value after k + 1 months)",
                yTitle: "Net per member (\(currency))"
            ).rendered(label: "Cumulative net revenue per cohort member by month")
    }
}
