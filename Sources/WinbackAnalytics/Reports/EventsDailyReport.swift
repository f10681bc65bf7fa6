/// `events_daily.csv.gz` (docs/notifications-and-commitments.md): accepted notifications, one per `notificationUUID`, counted by the day
/// of their `signedDate` in the report time zone over the 90 days ending `D` (`signedDate < T`), their
/// `notificationType` and `subtype` (empty when absent). Only combinations that occurred have a row; rows
/// are in day, type, subtype order (empty subtype first).
///
/// Example: two `DID_CHANGE_RENEWAL_STATUS` / `AUTO_RENEW_DISABLED` notifications signed on 2026-11-18 and
/// one `SUBSCRIBED` / `RESUBSCRIBE` on 2026-11-19 give the rows `2026-11-18,DID_CHANGE_RENEWAL_STATUS,AUTO_RENEW_DISABLED,2`
/// and `2026-11-19,SUBSCRIBED,RESUBSCRIBE,1`.
public enum EventsDailyReport {
    /// A row: notifications of one type and subtype on one day.
    public struct Row: TableRow, Equatable {
        /// `day`, `YYYY-MM-DD` in the report time zone.
        public var day: String
        /// `notification_type`.
        public var notificationType: String
        /// `subtype`, `nil` when absent.
        public var subtype: String?
        /// `notifications`.
        public var notifications: Int

        /// A row from its values.
        public init(day: String, notificationType: String, subtype: String?, notifications: Int) {
            self.day = day
            self.notificationType = notificationType
            self.subtype = subtype
            self.notifications = notifications
        }

        /// Hands the row's values to `fields`, in the schema's column order.
        public func write(to fields: inout some RowFields) {
            fields.date(label: day)
            fields.text(notificationType)
            fields.text(subtype)
            fields.integer(Int64(notifications))
        }
    }

    /// The days a row may fall on: the 90 ending with the as-of date.
    public static let dayCount = 90

    /// The rows for `events` with `calendar`'s days.
    public static func rows(_ events: [NotificationEvent], calendar: ReportCalendar) -> [Row] {
        rows(tally(events, calendar: calendar))
    }

    /// The counts of `events` on `calendar`'s days, keyed `[day, type, subtype]` (an absent subtype as ``)
    /// (docs/sharding.md).
    public static func tally(_ events: [NotificationEvent], calendar: ReportCalendar) -> TallyTable {
        let days = calendar.days(count: dayCount)
        var counts: [Int: [String: [String: Int]]] = [:]
        for event in events {
            guard let day = ReportPeriod.index(containing: event.signedDate, in: days) else { continue }
            counts[day, default: [:]][event.notificationType, default: [:]][event.subtype ?? "", default: 0] += 1
        }
        var table = TallyTable()
        for (day, types) in counts {
            for (type, subtypes) in types {
                for (subtype, count) in subtypes { table.add([days[day].label, type, subtype], [Int64(count)]) }
            }
        }
        return table
    }

    /// The rows from a ``tally(_:calendar:)`` (or several, added).
    public static func rows(_ tally: TallyTable) -> [Row] {
        let keys = tally.counts.keys.sorted { lhs, rhs in
            if lhs[0] != rhs[0] { return (lhs[0] ?? "") < (rhs[0] ?? "") }
            if lhs[1] != rhs[1] { return CodePointOrder.less(lhs[1] ?? "", rhs[1] ?? "") }
            return CodePointOrder.less(lhs[2] ?? "", rhs[2] ?? "")
        }
        return keys.map { key in
            let subtype = key[2] ?? ""
            return Row(
                day: key[0] ?? "", notificationType: key[1] ?? "", subtype: subtype.isEmpty ? nil : subtype,
                notifications: Int(tally.counts[key]?[0] ?? 0))
        }
    }
}
