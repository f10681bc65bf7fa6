import Foundation
import WinbackAppStore

/// Day and month boundaries in the report time zone (docs/analysts.md): periods are calendar periods there, and
/// `T` is the instant the day after the as-of date `D` starts.
///
/// Example: `America/Los_Angeles`, `D` = 2026-03-08 (the spring-forward day, 23 hours long):
/// `T` = 2026-03-09T07:00:00Z, and the day 2026-03-08 is `[2026-03-08T08:00Z, 2026-03-09T07:00Z)`.
public struct ReportCalendar: Sendable {
    /// The report time zone.
    public let timeZone: TimeZone
    private let calendar: Calendar
    /// The as-of date `D`: year.
    public let year: Int
    /// The as-of date `D`: month, 1–12.
    public let month: Int
    /// The as-of date `D`: day of the month.
    public let day: Int
    /// `T`: the start of `D + 1`, epoch ms (computed once: the reports compare against it per row).
    public let asOf: Int64
    /// The zone's offset from UTC in ms when it never changes (UTC, fixed-offset zones), else `nil`.
    private let fixedOffset: Int64?

    /// `nil` when the time zone is unknown.
    public init?(timeZone identifier: String, asOfYear year: Int, month: Int, day: Int) {
        guard let timeZone = TimeZone(identifier: identifier) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.timeZone = timeZone
        self.calendar = calendar
        self.year = year
        self.month = month
        self.day = day
        asOf = Self.startOfDay(year: year, month: month, day: day + 1, in: calendar)
        let noTransitions = timeZone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: -2_208_988_800)) == nil
        fixedOffset = noTransitions ? Int64(timeZone.secondsFromGMT()) * 1000 : nil
    }

    /// The zone's offset from UTC at `instant`, ms.
    private func offset(at instant: Int64) -> Int64 {
        if let fixedOffset { return fixedOffset }
        let seconds = InstantFormat.floorDivide(instant, 1000)
        return Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))) * 1000
    }

    /// `instant` plus `months` calendar months in the report time zone, at the same local time of day; a
    /// day past the end of a shorter month is clamped to its last day (docs/money.md's LTV windows). A local
    /// time that does not exist on the target day (a spring-forward gap) takes the offset after the change.
    public func addingMonths(_ months: Int64, to instant: Int64) -> Int64 {
        let local = InstantFormat.addingMonths(instant + offset(at: instant), months)
        // The target's own offset: a first guess from the start's, corrected once by the guess's.
        let guess = local - offset(at: local - offset(at: instant))
        return local - offset(at: guess)
    }

    /// Parses `YYYY-MM-DD`.
    public static func parseDate(_ text: String) -> (Int, Int, Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let days = InstantFormat.days(year: Int64(year), month: Int64(month), day: Int64(day))
        let (y, m, d) = InstantFormat.civil(fromDays: days)
        guard y == year, m == month, d == day else { return nil }
        return (year, month, day)
    }

    /// The as-of date `D` as `YYYY-MM-DD`.
    public var asOfLabel: String { InstantFormat.date(days: InstantFormat.days(year: Int64(year), month: Int64(month), day: Int64(day))) }

    /// Start of the given local day, epoch ms.
    public func startOfDay(year: Int, month: Int, day: Int) -> Int64 {
        Self.startOfDay(year: year, month: month, day: day, in: calendar)
    }

    private static func startOfDay(year: Int, month: Int, day: Int, in calendar: Calendar) -> Int64 {
        // Normalise through the proleptic calendar so day overflow (32nd) rolls into the next month.
        let (y, m, d) = InstantFormat.civil(fromDays: InstantFormat.days(year: Int64(year), month: Int64(month), day: Int64(day)))
        var components = DateComponents()
        components.year = Int(y)
        components.month = Int(m)
        components.day = Int(d)
        guard let date = calendar.date(from: components) else { return 0 }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// The local day an instant falls in, as days since 1970-01-01 (the proleptic Gregorian day number).
    public func localDayNumber(of instant: Int64) -> Int64 {
        let components = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(instant) / 1000))
        return InstantFormat.days(
            year: Int64(components.year ?? 1970), month: Int64(components.month ?? 1), day: Int64(components.day ?? 1))
    }

    /// The as-of date `D` as days since 1970-01-01.
    public var asOfDayNumber: Int64 { InstantFormat.days(year: Int64(year), month: Int64(month), day: Int64(day)) }

    /// The local (year, month) an instant falls in.
    public func yearMonth(of instant: Int64) -> (Int, Int) {
        let components = calendar.dateComponents([.year, .month], from: Date(timeIntervalSince1970: Double(instant) / 1000))
        return (components.year ?? 1970, components.month ?? 1)
    }

    /// Months from the one containing `first` through `D`'s month; the last ends at `T`.
    public func months(from first: Int64) -> [ReportPeriod] {
        var (y, m) = yearMonth(of: min(first, asOf - 1))
        var periods: [ReportPeriod] = []
        let end = asOf
        while y < year || (y == year && m <= month) {
            let (nextYear, nextMonth) = m == 12 ? (y + 1, 1) : (y, m + 1)
            let start = startOfDay(year: y, month: m, day: 1)
            let stop = min(startOfDay(year: nextYear, month: nextMonth, day: 1), end)
            periods.append(ReportPeriod(label: String(format: "%04d-%02d", y, m), start: start, end: stop))
            (y, m) = (nextYear, nextMonth)
        }
        return periods
    }

    /// The `count` days ending with `D`.
    public func days(count: Int) -> [ReportPeriod] {
        let dNumber = InstantFormat.days(year: Int64(year), month: Int64(month), day: Int64(day))
        return (0..<count).reversed().map { offset in
            let number = dNumber - Int64(offset)
            let (y, m, d) = InstantFormat.civil(fromDays: number)
            return ReportPeriod(
                label: InstantFormat.date(days: number), start: startOfDay(year: Int(y), month: Int(m), day: Int(d)),
                end: startOfDay(year: Int(y), month: Int(m), day: Int(d) + 1))
        }
    }

    /// The latest calendar month ending at or before `T`.
    public var lastFullMonth: (Int, Int) {
        let (y, m) = (year, month)
        let nextMonthStart = startOfDay(year: m == 12 ? y + 1 : y, month: m == 12 ? 1 : m + 1, day: 1)
        if nextMonthStart <= asOf { return (y, m) }
        return m == 1 ? (y - 1, 12) : (y, m - 1)
    }

    /// `lastFullMonth` as `YYYY-MM`.
    public var lastFullMonthLabel: String {
        let (year, month) = lastFullMonth
        return String(year) + "-" + (month < 10 ? "0" : "") + String(month)
    }
}
