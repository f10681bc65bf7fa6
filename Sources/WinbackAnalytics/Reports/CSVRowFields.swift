import WinbackAppStore

/// A row's fields written straight into CSV bytes, each with the comma after it, building no `String`
/// for a number or an instant: for the millions of rows of `subscriptions.csv`, where the strings of a
/// `[String?]` row were about ten heap blocks per row. ``finishLine()`` turns the last comma into the line
/// end, which makes the bytes ``CSVFormat/append(_:to:)`` writes for the same fields.
struct CSVRowFields: RowFields {
    var bytes: [UInt8]

    mutating func text(_ value: String?) {
        if var value { value.withUTF8 { CSVFormat.appendField($0, to: &bytes) } }
        bytes.append(0x2C)
    }

    mutating func integer(_ value: Int64?) {
        // A number's text fits a small string, which lives inline: no heap block.
        if let value { bytes.append(contentsOf: String(value).utf8) }
        bytes.append(0x2C)
    }

    mutating func instant(_ milliseconds: Int64?) {
        if let milliseconds { InstantFormat.appendISO8601(milliseconds: milliseconds, to: &bytes) }
        bytes.append(0x2C)
    }

    /// Ends the line: its last comma becomes `\n`.
    mutating func finishLine() {
        precondition(bytes.last == 0x2C, "a line has at least one field")
        bytes[bytes.count - 1] = 0x0A
    }
}
