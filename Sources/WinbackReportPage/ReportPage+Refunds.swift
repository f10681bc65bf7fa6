import WinbackAnalytics
import WinbackCore

/// The refund requests section of `report.html` (docs/refunds.md): what each policy answered and what Apple then
/// decided, so a developer sees what "decline" saved and what "grant" cost.
extension ReportPage {
    static func refundsSection(_ content: ReportPageContent) -> String {
        let rows = content.refundRequests
        guard !rows.isEmpty else {
            return paragraph(
                "No refund request (CONSUMPTION_REQUEST) up to as-of. With a refunds block in the config, winback refunds answers them hourly."
            )
        }
        let summary = RefundRequestsReport.Summary(rows, currency: content.currency)
        var inTime: [String: Int] = [:]
        for row in rows where row.answer?.status == .sent { inTime[row.answer?.decision.policyId ?? "", default: 0] += 1 }
        var html =
            "<div class=\"callout\">"
            + figure("Refund requests", display: ChartNumber.grouped(summary.received), column: "received", value: String(summary.received))
            + figure(
                "Answered in time", display: ChartNumber.grouped(summary.answered), column: "answered", value: String(summary.answered))
            + figure("Too late to answer", display: ChartNumber.grouped(summary.late), column: "late", value: String(summary.late))
            + "</div>"
        var headers = ["Policy", "Requests", "Answered in time", "Refunded", "Declined", "Pending", "Refund rate"]
        if content.currency != nil { headers.append("Refunded amount") }
        html +=
            HTMLTable(
                id: "refunds-table", headers: headers,
                rows: summary.policies.map { counts -> [HTMLTable.Cell] in
                    var cells: [HTMLTable.Cell] = [
                        .label(counts.policyId.isEmpty ? "no policy" : counts.policyId, column: "policy_id"),
                        .count(counts.requests, column: "requests"), .count(inTime[counts.policyId] ?? 0, column: "answered"),
                        .count(counts.refunded, column: "refunded"), .count(counts.declined, column: "declined"),
                        .count(counts.pending, column: "pending"), .rate(counts.refundRateMillionths, column: "refund_rate"),
                    ]
                    if let currency = content.currency {
                        cells.append(
                            HTMLTable.Cell(
                                display: money(counts.refundedAmount, currency), column: "refundedAmount",
                                value: String(counts.refundedAmount)))
                    }
                    return cells
                }
            ).rendered
        html += paragraph(
            "Refund rate: refunded among the requests Apple has decided (a later REFUND or REFUND_DECLINED). Apple weighs an answer sent "
                + "within 12 hours of the request; each request, its policy and answer are in refund_requests.csv.gz.")
        return html
    }
}
