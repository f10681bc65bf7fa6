import WinbackAppStore

/// A row's fields as the strings a CSV line is made of (``CSVFormat/line(_:)``).
struct TextRowFields: RowFields {
    var values: [String?] = []

    mutating func text(_ value: String?) { values.append(value) }
    mutating func integer(_ value: Int64?) { values.append(value.map { String($0) }) }
    mutating func instant(_ milliseconds: Int64?) { values.append(milliseconds.map { InstantFormat.iso8601(milliseconds: $0) }) }
}
