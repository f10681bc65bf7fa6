import WinbackAppStore

/// One UTC day of App Store Server Notification history (docs/sync.md): `[start, end)` in epoch milliseconds,
/// `end` exclusive, and the file `winback sync` writes it to.
public struct SyncDay: Sendable, Equatable, CustomStringConvertible {
    /// Milliseconds in a day.
    public static let milliseconds: Int64 = 86_400_000

    /// Days since 1970-01-01.
    public let dayNumber: Int64

    /// The day with this number (days since 1970-01-01).
    public init(dayNumber: Int64) {
        self.dayNumber = dayNumber
    }

    /// `YYYY-MM-DD`.
    public var label: String { InstantFormat.date(days: dayNumber) }
    /// The request's `startDate`: 00:00 UTC of the day, epoch ms.
    public var startMilliseconds: Int64 { dayNumber * Self.milliseconds }
    /// The request's `endDate` (exclusive): 00:00 UTC of the next day, epoch ms.
    public var endMilliseconds: Int64 { startMilliseconds + Self.milliseconds }
    /// `<YYYY-MM-DD>.ndjson.gz`, the day's file under `<api.directory>/notifications/`.
    public var fileName: String { label + ".ndjson.gz" }

    /// `YYYY-MM-DD`, as in log lines.
    public var description: String { label }
}
