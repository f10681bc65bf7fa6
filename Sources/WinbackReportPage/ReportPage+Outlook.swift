import WinbackAnalytics
import WinbackOutlook

/// "Who is about to leave" (docs/renewal-outlook.md): the risk bands with the proceeds they are expected to
/// bring, the main factors, and the backtest's calibration — the outlook's predictions against what happened,
/// beside the product-average baseline.
extension ReportPage {
    static func outlookSection(_ content: ReportPageContent) -> String {
        guard let outlook = content.renewalOutlook, outlook.subscriptions > 0 else {
            return paragraph("No subscription can renew at as-of (none active or in billing retry).")
        }
        let currency = content.currency
        func amount(_ milliunits: Int64) -> HTMLTable.Cell {
            HTMLTable.Cell(
                display: currency.map { money(milliunits, $0) } ?? "–", column: "expected_proceeds_12m", value: String(milliunits))
        }
        var html =
            "<div class=\"callout\">"
            + figure(
                "Subscriptions that can renew", display: ChartNumber.grouped(outlook.subscriptions), column: "subscriptions",
                value: String(outlook.subscriptions))
            + figure(
                "Expected renewals", display: ChartNumber.fixed(outlook.expectedRenewals, 1), column: "expectedRenewals",
                value: String((outlook.expectedRenewals * 1000).rounded() / 1000))
            + "</div>"
        // A table of groups of rows (bands, main factors): how many subscriptions, what they are expected to bring.
        func groups(
            _ id: String, _ title: String, column: String, _ table: [String: RenewalOutlookSummary.Group], _ keys: [String],
            label: (String) -> String
        ) -> String {
            HTMLTable(
                id: id, headers: [title, "Subscriptions", "Expected proceeds, 12 months"],
                rows: keys.map { key in
                    let group = table[key] ?? RenewalOutlookSummary.Group()
                    return [
                        .label(label(key), column: column), .count(group.subscriptions, column: "subscriptions"),
                        amount(group.expectedProceeds12m),
                    ]
                }
            ).rendered
        }
        html += groups("outlook-bands", "Risk band", column: "risk_band", outlook.bands, ["high", "medium", "low"]) { band in
            band + (band == "high" ? " (below 50 %)" : band == "medium" ? " (50–80 %)" : " (80 % or more)")
        }
        let factors = outlook.factors.keys.sorted {
            (outlook.factors[$0]?.subscriptions ?? 0, $1) > (outlook.factors[$1]?.subscriptions ?? 0, $0)
        }
        if !factors.isEmpty {
            html += groups("outlook-factors", "Main factor lowering the renewal", column: "main_factor", outlook.factors, factors) { $0 }
        }
        guard let backtest = outlook.backtest, backtest.scored > 0 else {
            return html + paragraph("No renewal fell due between 35 and 7 days before as-of: nothing to measure the outlook on yet.")
        }
        html += "<h3>How good it was: the backtest</h3>"
        html += paragraph(
            "Refit on what was known 35 days before as-of and scored on the \(ChartNumber.grouped(backtest.scored)) renewals due "
                + "between 35 and 7 days before it. Brier score \(backtest.brier.map { ChartNumber.fixed($0, 3) } ?? "–") (baseline "
                + "\(backtest.baselineBrier.map { ChartNumber.fixed($0, 3) } ?? "–"), lower is better); AUC "
                + "\(backtest.auc.map { ChartNumber.fixed($0, 3) } ?? "–") (baseline \(backtest.baselineAuc.map { ChartNumber.fixed($0, 3) } ?? "–"), "
                + "higher is better). The baseline predicts each product's average renewal rate.")
        let steps = (0..<10).map { "\($0 * 10)–\($0 * 10 + 10) %" }
        let series = [
            ChartSeries(
                name: "predicted (bin mean)", color: "#999999", values: backtest.calibration.map { $0.meanPredicted.map { $0 * 100 } }),
            ChartSeries(name: "observed, outlook", color: "#0072B2", values: backtest.calibration.map { $0.observedRate.map { $0 * 100 } }),
            ChartSeries(
                name: "observed, product-average baseline", color: "#E69F00",
                values: backtest.baselineCalibration.map { $0.observedRate.map { $0 * 100 } }),
        ]
        html += ChartSeries.legend(series)
        html += LineChart(steps: steps, series: series, xTitle: "Predicted renewal probability (bin)", yTitle: "Renewed (%)").rendered(
            label: "Calibration: predicted against observed renewal, by bin of predicted probability")
        html +=
            HTMLTable(
                id: "outlook-calibration", headers: ["Predicted", "Renewals", "Mean predicted", "Observed"],
                rows: zip(steps, backtest.calibration).map { step, bin in
                    [
                        .label(step, column: "bin"), .count(bin.count, column: "count"),
                        .rate(bin.meanPredicted.map { Int64(($0 * 1_000_000).rounded()) }, column: "meanPredicted"),
                        .rate(bin.observedRate.map { Int64(($0 * 1_000_000).rounded()) }, column: "observedRate"),
                    ]
                }
            ).rendered
        return html
    }
}
