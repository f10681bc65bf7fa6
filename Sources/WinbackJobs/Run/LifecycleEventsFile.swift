import Crypto
import WinbackAnalytics
import WinbackIO

/// `lifecycle_events.ndjson.gz` (docs/deliveries.md: Lifecycle events): every ``LifecycleEvent`` of the model that
/// occurred on the as-of date in the report time zone, one JSON line each with its stable id, in
/// ``LifecycleEvent/precedes(_:_:)`` order. A run writes it from its model; shards write theirs into their partials
/// and the merge writes their union, so both publish the same file.
enum LifecycleEventsFile {
    /// The stable id of `event`: SHA-256 of ``LifecycleEvent/identity``, lower-case hex, first 32 digits.
    static func id(_ event: LifecycleEvent) -> String {
        String(HexDigest.string(SHA256.hash(data: Array(event.identity.utf8))).prefix(32))
    }

    /// The events of `timelines` on the as-of date of `calendar`, in file order.
    static func events(_ timelines: [SubscriptionTimeline], calendar: ReportCalendar) -> [LifecycleEvent] {
        let start = calendar.startOfDay(year: calendar.year, month: calendar.month, day: calendar.day)
        return timelines.flatMap { LifecycleEvent.events(of: $0, since: start) }.sorted(by: LifecycleEvent.precedes)
    }

    /// Writes `lines` (in file order) into `directory`.
    static func write(_ lines: some Sequence<String>, directory: String) throws(IOError) -> OutputStats {
        let writer = try ReportFileWriter(directory: directory, schema: .lifecycleEvents, isCSV: false)
        for line in lines { try writer.write(line: line + "\n") }
        return try writer.finish()
    }

    /// The fields of `event` in a partial's `events.wbr`: its order key (`occurredAt` epoch ms, type, original
    /// transaction id) and its line.
    static func partialFields(_ event: LifecycleEvent) -> [[UInt8]] {
        [
            Array(String(event.occurredAt).utf8), Array(event.kind.rawValue.utf8), Array(event.originalTransactionId.utf8),
            Array(event.line(id: id(event)).utf8),
        ]
    }
}
