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
        if let value {
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
                var rest = value.magnitude
                var start = digits.count
                repeat {
                    start -= 1
                    digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                } while rest > 0
                bytes.append(contentsOf: digits[start...])
            }
        }
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
