/// A calendar period of a report, `[start, end)` with `end` capped at `T`, labelled `YYYY-MM` or `YYYY-MM-DD`.
public struct ReportPeriod: Sendable, Equatable {
    /// `YYYY-MM` or `YYYY-MM-DD`, as written in the report.
    public var label: String
    /// The period's first instant, epoch ms (inclusive).
    public var start: Int64
    /// The instant after the period, epoch ms (exclusive; `T` for the period holding the as-of date).
    public var end: Int64

    /// The period `[start, end)` labelled `label`.
    public init(label: String, start: Int64, end: Int64) {
        self.label = label
        self.start = start
        self.end = end
    }

    /// The index of the period of `periods` (ordered by start, not overlapping) that holds `instant`, or `nil`.
    public static func index(containing instant: Int64, in periods: [ReportPeriod]) -> Int? {
        // The last period that starts at or before `instant`, by bisection.
        var low = 0
        var high = periods.count
        while low < high {
            let middle = (low + high) / 2
            if periods[middle].start <= instant { low = middle + 1 } else { high = middle }
        }
        let index = low - 1
        guard index >= 0, instant < periods[index].end else { return nil }
        return index
    }

    /// Index of the first of `periods` (ordered by start) whose start is `>= instant`; `periods.count` if none.
    public static func firstIndex(startingAtOrAfter instant: Int64, in periods: [ReportPeriod]) -> Int {
        firstIndex(in: periods) { $0.start < instant }
    }

    /// Index of the first of `periods` (ordered) whose end is `> instant`; `periods.count` if none.
    public static func firstIndex(endingAfter instant: Int64, in periods: [ReportPeriod]) -> Int {
        firstIndex(in: periods) { $0.end <= instant }
    }

    /// Index of the first period for which `isBefore` is false (it holds for a prefix), by bisection.
    private static func firstIndex(in periods: [ReportPeriod], after isBefore: (ReportPeriod) -> Bool) -> Int {
        var low = 0
        var high = periods.count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(periods[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
