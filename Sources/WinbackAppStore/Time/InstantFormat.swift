/// Formats epoch milliseconds as UTC text without Foundation's formatters (fast, locale-free).
public enum InstantFormat {
    /// Milliseconds in a day.
    public static let day: Int64 = 86_400_000

    /// `YYYY-MM-DDTHH:MM:SS.sssZ`, e.g. `0` → `1970-01-01T00:00:00.000Z`.
    public static func iso8601(milliseconds: Int64) -> String {
        guard let fields = Fields(milliseconds: milliseconds) else { return wideISO8601(milliseconds: milliseconds) }
        // Fixed-width fast path: one allocation per instant (reports format millions of them).
        return String(unsafeUninitializedCapacity: 24) { buffer in
            fields.write(into: buffer)
            return 24
        }
    }

    /// Appends ``iso8601(milliseconds:)``'s text to `output` as UTF-8, building no `String` for the years
    /// 0–9999 (a report row writes its instants straight into the bytes it compresses).
    public static func appendISO8601(milliseconds: Int64, to output: inout [UInt8]) {
        guard let fields = Fields(milliseconds: milliseconds) else {
            output.append(contentsOf: wideISO8601(milliseconds: milliseconds).utf8)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            fields.write(into: buffer)
            output.append(contentsOf: buffer)
        }
    }

    /// The calendar fields of an instant whose year has four digits.
    private struct Fields {
        let year, month, dayOfMonth, msOfDay: Int64

        init?(milliseconds: Int64) {
            let days = InstantFormat.floorDivide(milliseconds, InstantFormat.day)
            msOfDay = InstantFormat.millisecondsOfDay(milliseconds)
            (year, month, dayOfMonth) = InstantFormat.civil(fromDays: days)
            guard (0...9999).contains(year) else { return nil }
        }

        /// The 24 bytes of the text into `buffer` (at least 24 bytes).
        func write(into buffer: UnsafeMutableBufferPointer<UInt8>) {
            func put(_ value: Int64, _ width: Int, at offset: Int) {
                var value = value
                for position in stride(from: offset + width - 1, through: offset, by: -1) {
                    buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(year, 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(month, 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(dayOfMonth, 2, at: 8)
            buffer[10] = UInt8(ascii: "T")
            put(msOfDay / 3_600_000, 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            put(msOfDay / 60_000 % 60, 2, at: 14)
            buffer[16] = UInt8(ascii: ":")
            put(msOfDay / 1000 % 60, 2, at: 17)
            buffer[19] = UInt8(ascii: ".")
            put(msOfDay % 1000, 3, at: 20)
            buffer[23] = UInt8(ascii: "Z")
        }
    }

    /// The text of an instant outside the years 0–9999 (a sign or a fifth digit widens the year).
    private static func wideISO8601(milliseconds: Int64) -> String {
        let days = floorDivide(milliseconds, day)
        let msOfDay = millisecondsOfDay(milliseconds)
        let (year, month, dayOfMonth) = civil(fromDays: days)
        return
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(dayOfMonth, 2))T\(pad(msOfDay / 3_600_000, 2)):\(pad(msOfDay / 60_000 % 60, 2)):\(pad(msOfDay / 1000 % 60, 2)).\(pad(msOfDay % 1000, 3))Z"
    }

    /// `YYYY-MM-DD` of a day number (days since 1970-01-01).
    public static func date(days: Int64) -> String {
        let (year, month, dayOfMonth) = civil(fromDays: days)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(dayOfMonth, 2))"
    }

    /// The day number of a `YYYY-MM-DD` label (a report's day key), or `nil` when it is not one.
    public static func days(label: String) -> Int64? {
        let bytes = Array(label.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                let digit = bytes[index] &- 0x30
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month),
            (1...31).contains(day)
        else { return nil }
        return days(year: year, month: month, day: day)
    }

    /// Milliseconds since the start of the instant's UTC day, 0..<86 400 000; overflow-free for every Int64
    /// (`ms − ⌊ms / day⌋ × day` overflows at the most negative instants).
    static func millisecondsOfDay(_ milliseconds: Int64) -> Int64 {
        let remainder = milliseconds % day
        return remainder < 0 ? remainder + day : remainder
    }

    /// ⌊a / b⌋ for b > 0, rounding toward −∞.
    public static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    /// Proleptic Gregorian (year, month, day) of a day number (H. Hinnant's algorithm).
    public static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfMonth)
    }

    /// Day number (days since 1970-01-01) of a proleptic Gregorian date.
    public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `instant` plus `months` calendar months on the UTC calendar, the same time of day; a day past the end
    /// of a shorter month is clamped to its last day (Jan 31 + 1 month = Feb 28 or 29).
    public static func addingMonths(_ instant: Int64, _ months: Int64) -> Int64 {
        let days = floorDivide(instant, day)
        let timeOfDay = instant - days * day
        let (year, month, dayOfMonth) = civil(fromDays: days)
        let total = year * 12 + (month - 1) + months
        let newYear = floorDivide(total, 12)
        let newMonth = total - newYear * 12 + 1
        let monthStart = Self.days(year: newYear, month: newMonth, day: 1)
        let nextMonthStart = Self.days(year: newMonth == 12 ? newYear + 1 : newYear, month: newMonth == 12 ? 1 : newMonth + 1, day: 1)
        return (monthStart + min(dayOfMonth, nextMonthStart - monthStart) - 1) * day + timeOfDay
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
