import Crypto
import Foundation
import WinbackAnalytics
import WinbackCore
import WinbackIO
import WinbackIngest
import WinbackOutlook
import WinbackReportPage

/// `report.html` of a run: the page content gathered from the run's results, and the file written next to
/// the reports (plain HTML, not gzip, so a browser opens it directly).
enum RunPage {
    static let schema = ReportSchema(name: "report.html", columns: [])

    static func content(
        calendar: ReportCalendar, timeZone: String, inputs: [InputStats], counts: IngestCounts,
        reports: RunReports,
        offersSigned: Bool, campaigns: [CampaignCounts], freshness: DataFreshness
    ) -> ReportPageContent {
        var content = ReportPageContent(
            asOf: calendar.asOfLabel, timeZone: timeZone, toolVersion: WinbackVersion.current, inputFiles: inputs.count,
            inputBytes: inputs.reduce(0) { $0 + $1.bytes }, counts: counts, future: reports.future,
            otherProductTypes: reports.otherProductTypes,
            subscriptionsByStatus: RunSummary.statuses.map { (status: $0.rawValue, count: reports.subscriptionsByStatus[$0] ?? 0) },
            familyShared: reports.familyShared, offersSigned: offersSigned, lastFullMonth: calendar.lastFullMonthLabel,
            months: reports.churnMonthly.periods.map(\.label), churnMonthly: reports.churnMonthlyRows,
            expirationReasons: reports.expirationReasons, offerUsage: reports.offerUsage, retentionCohorts: reports.retentionCohorts,
            campaigns: campaigns, freshness: freshness)
        content.eventsDaily = reports.eventsDaily
        content.currency = reports.money.currency
        content.revenueMonthly = reports.money.revenueMonthly.rows()
        content.mrrMonthly = reports.money.mrr.rows()
        content.ltvCohorts = reports.money.ltv.rows()
        content.campaignOutcomes = reports.campaignOutcomes
        content.refundRequests = reports.refundRequests
        content.renewalOutlook = reports.renewalOutlook
        return content
    }

    /// Renders the page into `directory/report.html`; `rows` is 0 (the page has no data rows).
    static func write(_ content: ReportPageContent, to directory: String) throws(JobError) -> OutputStats {
        let bytes = Data(ReportPage.render(content).utf8)
        let path = directory + "/" + schema.name
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw .io(IOError(path: path, reason: "cannot create file"))
        }
        do {
            try handle.write(contentsOf: bytes)
            try handle.synchronize()
            try handle.close()
        } catch {
            throw .io(IOError(path: path, reason: "\(error)"))
        }
        return OutputStats(
            name: schema.name, rows: 0, bytes: bytes.count, sha256: HexDigest.string(SHA256.hash(data: bytes)), schema: schema)
    }
}
