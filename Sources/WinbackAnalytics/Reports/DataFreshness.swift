import WinbackAppStore

/// How recent a run's data is: the local day of the newest accepted `signedDate` against the as-of date.
///
/// Churn counted on days the exports do not cover yet is missing data, not churn: a stale run says so
/// (stderr warning, `"stale": true` in the summary line, a banner on report.html).
public struct DataFreshness: Sendable, Equatable {
    /// `YYYY-MM-DD` in the report time zone of the newest accepted `signedDate`; `nil` when nothing was accepted.
    public let dataThrough: String?
    /// Whole days from `dataThrough` to the as-of date (negative when the data is newer); `nil` without data.
    public let lagDays: Int?
    /// `report.maxDataLagDays`.
    public let maxLagDays: Int

    /// The freshness of data whose newest signature is `newestSignedDate` (epoch ms) for `calendar`'s as-of date.
    public init(newestSignedDate: Int64?, calendar: ReportCalendar, maxLagDays: Int) {
        self.maxLagDays = maxLagDays
        guard let newestSignedDate else {
            dataThrough = nil
            lagDays = nil
            return
        }
        let day = calendar.localDayNumber(of: newestSignedDate)
        dataThrough = InstantFormat.date(days: day)
        lagDays = Int(clamping: calendar.asOfDayNumber - day)
    }

    /// More than `maxLagDays` between the data's last day and the as-of date, or no data at all.
    public var isStale: Bool { lagDays.map { $0 > maxLagDays } ?? true }

    /// The stderr warning of a stale run.
    public func warning(asOf: String) -> String {
        guard let dataThrough else {
            return "warning: stale data: no record was accepted, so nothing is known about \(asOf)"
        }
        return "warning: stale data: the newest record is signed \(dataThrough), \(lagDays ?? 0) days before as-of \(asOf) "
            + "(report.maxDataLagDays \(maxLagDays)); churn after \(dataThrough) is missing data, not churn"
    }
}
