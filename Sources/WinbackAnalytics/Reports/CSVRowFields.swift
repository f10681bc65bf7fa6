import WinbackAppStore

/// A row's fields written straight into CSV bytes, each with the comma after it, building no `String`
/// for a number or an instant: for the millions of rows of `subscriptions.csv`, where the strings of a
/// `[String?]` row were about ten heap blocks per row. ``finishLine()`` turns the last comma into the line
/// end, which makes the bytes ``CSVFormat/append(_:to:)`` writes for ``TextRowFields``' cells.
package struct CSVRowFields: RowFields {
    /// The bytes written so far.
    package var bytes: [UInt8]

    /// Fields appended to `bytes`.
    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Appends the CSV line of `row` (with its newline) to `output`.
    package static func append(_ row: some TableRow, to output: inout [UInt8]) {
        // The bytes are moved in and out, so appending to them does not copy the caller's buffer.
        var fields = CSVRowFields(bytes: [])
        swap(&fields.bytes, &output)
        row.write(to: &fields)
        fields.finishLine()
        swap(&fields.bytes, &output)
    }

    package mutating func text(_ value: String?) {
        if var value { value.withUTF8 { CSVFormat.appendField($0, to: &bytes) } }
        bytes.append(0x2C)
    }

    package mutating func integer(_ value: Int64?) {
        // A number's text fits a small string, which lives inline: no heap block.
        if let value { bytes.append(contentsOf: String(value).utf8) }
        bytes.append(0x2C)
    }

    package mutating func instant(_ milliseconds: Int64?) {
        if let milliseconds { InstantFormat.appendISO8601(milliseconds: milliseconds, to: &bytes) }
        bytes.append(0x2C)
    }

    package mutating func rate(_ millionths: Int64?) {
        if let millionths { bytes.append(contentsOf: RateFormat.text(millionths: millionths).utf8) }
        bytes.append(0x2C)
    }

    package mutating func money(_ milliunits: Int64?) { integer(milliunits) }

    package mutating func date(_ days: Int64?) {
        if let days { bytes.append(contentsOf: InstantFormat.date(days: days).utf8) }
        bytes.append(0x2C)
    }

    package mutating func boolean(_ value: Bool?) {
        if let value { bytes.append(contentsOf: (value ? "true" : "false").utf8) }
        bytes.append(0x2C)
    }

    /// Ends the line: its last comma becomes `\n`.
    mutating func finishLine() {
        precondition(bytes.last == 0x2C, "a line has at least one field")
        bytes[bytes.count - 1] = 0x0A
    }
}
