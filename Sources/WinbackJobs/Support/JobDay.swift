import Foundation
import WinbackAnalytics
import WinbackAppStore
import WinbackCore
import WinbackIO

/// What every job reads of the day and the clock, and how it warns: the as-of calendar, the instants the ledger
/// records, a warning on stderr. Shared by run, merge, deliver, sign and serve.
package enum JobDay {
    /// `date` as the ISO 8601 instant the ledger and lock file record.
    package static func timestamp(_ date: Date) -> String {
        InstantFormat.iso8601(milliseconds: Int64(date.timeIntervalSince1970 * 1000))
    }

    /// A warning on stderr, unless `isQuiet`.
    package static func warn(_ message: String, isQuiet: Bool) {
        if !isQuiet { Diagnostics.logger.warning("\(message)") }
    }

    /// The report calendar whose as-of date is today in the report time zone: its `T` (the next midnight) is after
    /// `now`, so every record signed so far is in it (`winback refunds`).
    package static func today(config: WinbackConfig, now: Date) throws(JobError) -> ReportCalendar {
        try calendar(config: config, asOf: nil, now: now.addingTimeInterval(86_400))
    }

    /// The report calendar for `--as-of`, or yesterday in the report time zone.
    package static func calendar(config: WinbackConfig, asOf: String?, now: Date) throws(JobError) -> ReportCalendar {
        let date: (Int, Int, Int)
        if let asOf {
            guard let parsed = ReportCalendar.parseDate(asOf) else {
                throw .usage("--as-of: expected a date YYYY-MM-DD, found '\(asOf)'")
            }
            date = parsed
        } else {
            var gregorian = Calendar(identifier: .gregorian)
            gregorian.timeZone = TimeZone(identifier: config.report.timeZone) ?? .current
            let today = gregorian.dateComponents([.year, .month, .day], from: now)
            let days =
                InstantFormat.days(year: Int64(today.year ?? 1970), month: Int64(today.month ?? 1), day: Int64(today.day ?? 1)) - 1
            let (year, month, day) = InstantFormat.civil(fromDays: days)
            date = (Int(year), Int(month), Int(day))
        }
        guard let calendar = ReportCalendar(timeZone: config.report.timeZone, asOfYear: date.0, month: date.1, day: date.2) else {
            throw .usage("report.timeZone: unknown time zone '\(config.report.timeZone)'")
        }
        return calendar
    }
}
