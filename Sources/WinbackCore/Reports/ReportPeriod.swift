/// A calendar period of a report, `[start, end)` with `end` capped at `T`, labelled `YYYY-MM` or `YYYY-MM-DD`.
public struct ReportPeriod: Sendable, Equatable {
    public var label: String
    public var start: Int64
    public var end: Int64

    public init(label: String, start: Int64, end: Int64) {
        self.label = label
        self.start = start
        self.end = end
    }
}
