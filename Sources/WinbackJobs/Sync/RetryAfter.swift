import Foundation

/// The `Retry-After` header: delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
enum RetryAfter {
    /// Seconds to wait from `now`, or `nil` when the header is absent or unreadable (then the backoff applies).
    static func seconds(_ value: String?, now: Date) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return Double(max(seconds, 0)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(date.timeIntervalSince(now), 0)
    }
}
