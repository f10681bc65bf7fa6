/// `events_daily.csv.gz` (docs/notifications-and-commitments.md): accepted notifications, one per `notificationUUID`, counted by the day
/// of their `signedDate` in the report time zone over the 90 days ending `D` (`signedDate < T`), their
/// `notificationType` and `subtype` (empty when absent). Only combinations that occurred have a row; rows
/// are in day, type, subtype order (empty subtype first).
///
/// Example: two `DID_CHANGE_RENEWAL_STATUS` / `AUTO_RENEW_DISABLED` notifications signed on 2026-11-18 and
/// one `SUBSCRIBED` / `RESUBSCRIBE` on 2026-11-19 give the rows `2026-11-18,DID_CHANGE_RENEWAL_STATUS,AUTO_RENEW_DISABLED,2`
/// and `2026-11-19,SUBSCRIBED,RESUBSCRIBE,1`.
public enum EventsDailyReport {
    /// The days a row may fall on: the 90 ending with the as-of date.
    public static let dayCount = 90

    /// The rows for `events` with `calendar`'s days.
    public static func rows(_ events: [NotificationEvent], calendar: ReportCalendar) -> [[String?]] {
        let days = calendar.days(count: dayCount)
        var counts: [Int: [String: [String: Int]]] = [:]
        for event in events {
            guard let day = ReportPeriod.index(containing: event.signedDate, in: days) else { continue }
            counts[day, default: [:]][event.notificationType, default: [:]][event.subtype ?? "", default: 0] += 1
        }
        var rows: [[String?]] = []
        for day in counts.keys.sorted() {
            guard let types = counts[day] else { continue }
            for type in types.keys.sorted(by: CodePointOrder.less) {
                guard let subtypes = types[type] else { continue }
                for subtype in subtypes.keys.sorted(by: CodePointOrder.less) {
                    rows.append([days[day].label, type, subtype.isEmpty ? nil : subtype, String(subtypes[subtype] ?? 0)])
                }
            }
        }
        return rows
    }
}
