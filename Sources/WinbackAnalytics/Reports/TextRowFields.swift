import WinbackAppStore

/// A row's fields as the strings a CSV line is made of (``CSVFormat/line(_:)``), each rendered as
/// ``CSVRowFields`` writes it.
struct TextRowFields: RowFields {
    /// The cells so far, in column order (`nil` is empty).
    private(set) var values: [String?] = []

    /// No cells yet.
    init() {}

    mutating func text(_ value: String?) { values.append(value) }
    mutating func integer(_ value: Int64?) { values.append(value.map { String($0) }) }
    mutating func instant(_ milliseconds: Int64?) {
        values.append(milliseconds.map { InstantFormat.iso8601(milliseconds: $0) })
    }
    mutating func rate(_ millionths: Int64?) { values.append(millionths.map(RateFormat.text(millionths:))) }
    mutating func money(_ milliunits: Int64?) { values.append(milliunits.map { String($0) }) }
    mutating func date(_ days: Int64?) { values.append(days.map(InstantFormat.date(days:))) }
    mutating func boolean(_ value: Bool?) { values.append(value.map { $0 ? "true" : "false" }) }
}
