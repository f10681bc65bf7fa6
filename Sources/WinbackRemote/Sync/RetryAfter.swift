import Foundation

/// The `Retry-After` header in the forms Apple sends: delay-seconds, an HTTP-date (RFC 9110 §10.2.3), or — on
/// the App Store Server API's 429 — an instant in milliseconds since the epoch (docs/sync.md: a number above
/// 10^11 is such an instant, below it seconds).
enum RetryAfter {
    /// Numbers above this are instants in epoch milliseconds (10^11 seconds is over 3 000 years).
    static let instantThreshold: Int64 = 100_000_000_000

    /// Seconds to wait from `now`, or `nil` when the header is absent or unreadable (then the backoff applies).
    static func seconds(_ value: String?, now: Date) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let number = Int64(value) {
            guard number > instantThreshold else { return Double(max(number, 0)) }
            return max(Double(number) / 1000 - now.timeIntervalSince1970, 0)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(date.timeIntervalSince(now), 0)
    }
}
