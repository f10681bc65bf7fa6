import WinbackAnalytics
import WinbackAppStore

/// Which days `winback sync` requests (docs/sync.md): `[from, to]`, by default the last 3 days through
/// yesterday (UTC). Only complete days are synced (a day still running would be written as done), and none
/// older than the App Store's 180 days of notification history.
public enum SyncDayRange {
    /// How many days of notification history the App Store keeps (production).
    public static let historyDays: Int64 = 180
    /// Days synced when `--from` is not given: through `to`, inclusive.
    public static let defaultDays: Int64 = 3

    /// The days of `[from, to]` given the current time `now` (epoch ms). A bad date, `from` after `to`, a
    /// day not over yet or older than ``historyDays`` throws naming the flag (`--from` / `--to`).
    public static func days(from: String?, to: String?, now: Int64) throws(ConfigError) -> [SyncDay] {
        let today = InstantFormat.floorDivide(now, SyncDay.milliseconds)
        let yesterday = today - 1
        let last = try to.map { text throws(ConfigError) in try parse(text, flag: "--to") } ?? yesterday
        let first = try from.map { text throws(ConfigError) in try parse(text, flag: "--from") } ?? last - (defaultDays - 1)
        guard last < today else {
            throw ConfigError(
                key: "--to",
                message:
                    "\(InstantFormat.date(days: last)) is not over yet (UTC); the last complete day is \(InstantFormat.date(days: yesterday))"
            )
        }
        guard first <= last else {
            throw ConfigError(key: "--from", message: "\(InstantFormat.date(days: first)) is after --to \(InstantFormat.date(days: last))")
        }
        let oldest = today - historyDays
        guard first >= oldest else {
            throw ConfigError(
                key: from == nil ? "--to" : "--from",
                message: "\(InstantFormat.date(days: first)) is older than the App Store's \(historyDays) days of notification history "
                    + "(the oldest day it keeps is \(InstantFormat.date(days: oldest)))")
        }
        return (first...last).map(SyncDay.init(dayNumber:))
    }

    private static func parse(_ text: String, flag: String) throws(ConfigError) -> Int64 {
        guard let (year, month, day) = ReportCalendar.parseDate(text) else {
            throw ConfigError(key: flag, message: "expected a date YYYY-MM-DD, found '\(text)'")
        }
        return InstantFormat.days(year: Int64(year), month: Int64(month), day: Int64(day))
    }
}
