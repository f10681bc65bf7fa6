import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackIO
import WinbackIngest
import WinbackOutlook

/// `summary.json.gz` and the run's stdout line (README: Commands).
enum RunSummary {
    /// Status order of `subscriptionsByStatus` (and of the page's status mix).
    static let statuses: [SubscriptionStatus] = [.active, .expired, .billingRetry, .billingGracePeriod, .revoked]

    static func json(
        calendar: ReportCalendar, timeZone: String, offersSigned: Bool, counts: IngestCounts,
        reports: RunReports, campaigns: [(String, JSONValue)], retentionRequests: JSONValue = .array([])
    ) -> JSONValue {
        let label = calendar.lastFullMonthLabel
        var activeStart = 0
        var churned = 0
        if let index = reports.churnMonthly.periods.firstIndex(where: { $0.label == label }) {
            let totals = reports.churnMonthly.totals(period: index)
            activeStart = totals.activeStart
            churned = totals.churned
        }
        return JSONText.object([
            ("asOf", .string(calendar.asOfLabel)), ("timeZone", .string(timeZone)), ("offersSigned", .bool(offersSigned)),
            ("records", counts.summaryJSON(extra: [("future", reports.future), ("otherProductTypes", reports.otherProductTypes)])),
            (
                "subscriptionsByStatus",
                JSONText.object(statuses.map { ($0.rawValue, JSONValue.integer(Int64(reports.subscriptionsByStatus[$0] ?? 0))) })
            ),
            ("familySharedSubscriptions", .integer(Int64(reports.familyShared))),
            (
                "lastFullMonth",
                JSONText.object([
                    ("month", .string(label)), ("activeStart", .integer(Int64(activeStart))), ("churned", .integer(Int64(churned))),
                    ("churnRate", RateFormat.format(churned, activeStart).flatMap { Double($0) }.map { .double($0) } ?? .null),
                ])
            ),
            ("offersPerCampaign", JSONText.object(campaigns)),
            ("money", reports.money.summary(lastFullMonth: label)),
            (
                "srmAlarms",
                .array(CampaignOutcomesReport.splitAlarms(reports.campaignOutcomes).map { JSONElement(value: $0.json, range: 0..<0) })
            ),
            ("retentionRequests", retentionRequests),
            ("refundRequests", RefundRequestsReport.Summary(reports.refundRequests, currency: reports.money.currency).json),
            ("renewalOutlook", reports.renewalOutlook.json),
        ])
    }

    static func manifest(
        calendar: ReportCalendar, timeZone: String, configSha256: String, inputs: [InputStats], counts: IngestCounts, outputs: [OutputStats]
    ) -> JSONValue {
        JSONText.object([
            ("toolVersion", .string(WinbackVersion.current)), ("asOf", .string(calendar.asOfLabel)), ("timeZone", .string(timeZone)),
            ("configSha256", .string(configSha256)),
            (
                "inputs",
                JSONText.array(
                    inputs.map { input in
                        JSONText.object([
                            ("path", .string(input.path)), ("bytes", .integer(Int64(input.bytes))), ("sha256", .string(input.sha256)),
                            ("records", .integer(Int64(counts.recordsBySource[input.path] ?? 0))),
                        ])
                    })
            ),
            (
                "outputs",
                JSONText.array(
                    outputs.map { output in
                        JSONText.object([
                            ("name", .string(output.name)), ("rows", .integer(Int64(output.rows))),
                            ("bytes", .integer(Int64(output.bytes))),
                            ("sha256", .string(output.sha256)),
                            (
                                "schema",
                                JSONText.array(
                                    output.schema.columns.map {
                                        JSONText.object([("name", .string($0.name)), ("type", .string($0.type.rawValue))])
                                    })
                            ),
                        ])
                    })
            ),
        ])
    }
}
