import Foundation
import WinbackAnalytics
import WinbackAppStore

/// `refunds.overrides` (docs/refunds.md): a CSV file `key,preference` whose `key` is an `appAccountToken` or an
/// `originalTransactionId`. An override beats every policy.
public struct RefundOverrides: Sendable, Equatable {
    /// Preference by key (an `appAccountToken` in lower case, or an `originalTransactionId` as written).
    public var preferences: [String: RefundPreference]

    /// No overrides.
    public init(preferences: [String: RefundPreference] = [:]) {
        self.preferences = preferences
    }

    /// The preference for a request of this account token or original transaction id (the token first).
    public func preference(appAccountToken: String?, originalTransactionId: String?) -> RefundPreference? {
        if let token = appAccountToken, let found = preferences[token.lowercased()] { return found }
        if let id = originalTransactionId, let found = preferences[id] { return found }
        return nil
    }

    /// Parses the file's text: a header `key,preference`, then one row per key. A row without two fields, an empty
    /// key, an unknown preference or a key given twice is a ``ConfigError`` naming `file:line`.
    public static func parse(_ text: String, file: String, key: String) throws(ConfigError) -> RefundOverrides {
        var preferences: [String: RefundPreference] = [:]
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let header = lines.first, CSVFormat.fields(of: String(header)) == ["key", "preference"] else {
            throw ConfigError(key: key, message: "\(file):1: expected the header key,preference")
        }
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let place = "\(file):\(index + 1)"
            let fields = CSVFormat.fields(of: String(line))
            guard fields.count == 2, let rawKey = fields[0], !rawKey.isEmpty else {
                throw ConfigError(key: key, message: "\(place): expected key,preference")
            }
            guard let preference = RefundPreference(rawValue: fields[1] ?? "") else {
                throw ConfigError(
                    key: key,
                    message:
                        "\(place): expected one of \(RefundPreference.allCases.map(\.rawValue).joined(separator: ", ")), found '\(fields[1] ?? "")'"
                )
            }
            // An account token is a UUID, matched in lower case as account keys are.
            let normalized = UUID(uuidString: rawKey) != nil ? rawKey.lowercased() : rawKey
            guard preferences[normalized] == nil else { throw ConfigError(key: key, message: "\(place): '\(rawKey)' is given twice") }
            preferences[normalized] = preference
        }
        return RefundOverrides(preferences: preferences)
    }
}
