/// An invalid configuration: names the key (dotted path), what was expected and what was found. Exit 64.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Dotted key path, e.g. `report.gracePeriodDays` or `campaigns[0].rules.lapseReasons`.
    public var key: String
    /// What was expected and what was found.
    public var message: String

    /// An error at `key` (dotted path, e.g. `report.timeZone`) saying `message`.
    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    /// `key: message`.
    public var description: String { "\(key): \(message)" }
}
